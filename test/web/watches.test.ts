import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountPageHarness, startAccountPage } from '../support/account-page.ts';

describe('the Watches page', () => {
  let page: AccountPageHarness;
  beforeAll(async () => {
    page = await startAccountPage();
  });
  afterAll(() => page?.close());

  const accountOf = async (email: string) => {
    const [row] = await page.db.sql<{ account_id: number }[]>`
      SELECT account_id FROM account_logins WHERE email_normalized = ${email}`;
    return row.account_id;
  };

  const CREATES =
    'creates a domain watch under the API rules, lists it with its news, and deletes it with the form token';
  it(CREATES, async () => {
    const browser = await page.signedIn('watcher@example.com');
    const empty = await browser.get('/account/watches');
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('You watch nothing yet.');
    expect(empty.text).toContain('href="/account/watches" aria-current="page"');
    const created = await browser.post('/account/watches', {
      kind: 'domain',
      target: 'https://WWW.Acme-Outdoor.com/x',
    });
    expect([created.status, created.location]).toEqual([303, '/account/watches?saved=created']);
    const accountId = await accountOf('watcher@example.com');
    const [watch] = await page.db.sql<{ id: string; target: string; sandbox: boolean; key_id: number | null }[]>`
      SELECT id, target, sandbox, key_id FROM watches WHERE account_id = ${accountId}`;
    expect(watch).toMatchObject({ target: 'acme-outdoor.com', sandbox: false, key_id: null });
    await page.db.sql`
      INSERT INTO watch_events (watch_id, advertiser_id, advertiser, landing_domain, first_seen, landing_domain_count)
      VALUES (${watch.id}, 'AR42', 'Acme Outdoor Deals', 'acme-outdoor.com', '2026-11-20', 6)`;
    const listed = await browser.get('/account/watches?saved=created');
    expect(listed.text).toContain('The watch is created.');
    expect(listed.text).toContain('<code>acme-outdoor.com</code>');
    expect(listed.text).toContain('Acme Outdoor Deals');
    expect(listed.text).toContain('multi domain intermediary');
    const again = await browser.post('/account/watches', { kind: 'domain', target: 'acme-outdoor.com' });
    expect(again.location).toBe('/account/watches?saved=existing');

    const forged = await browser.post(`/account/watches/${watch.id}/delete`, { csrf_token: 'forged' });
    expect(forged.status).toBe(403);
    const deleted = await browser.post(`/account/watches/${watch.id}/delete`, {});
    expect([deleted.status, deleted.location]).toEqual([303, '/account/watches?saved=deleted']);
    const [row] = await page.db.sql`SELECT deleted_at FROM watches WHERE id = ${watch.id}`;
    expect(row.deleted_at).not.toBeNull();
    expect((await browser.post(`/account/watches/${watch.id}/delete`, {})).status).toBe(404);
  });

  it('refuses a target with the API rule’s message, keeps what was typed, and separates sandbox watches', async () => {
    const browser = await page.signedIn('sandboxer@example.com');
    await browser.get('/account/watches');
    const refused = await browser.post('/account/watches', { kind: 'domain', target: 'localhost' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('must name a host with a registrable domain');
    expect(refused.text).toContain('value="localhost"');
    expect(refused.text).toContain('aria-invalid="true"');
    const blank = await browser.post('/account/watches', { kind: 'advertiser', target: '   ' });
    expect(blank.status).toBe(400);
    expect(blank.text).toContain('is required and must not be empty');
    expect((await browser.post('/account/watches', { kind: 'brand', target: 'x.com' })).status).toBe(400);
    const sandbox = await browser.post('/account/watches', {
      kind: 'advertiser',
      target: 'Acme Outdoor',
      sandbox: '1',
    });
    expect(sandbox.status).toBe(303);
    const listed = await browser.get('/account/watches');
    const [live, sandboxed] = listed.text.split('Sandbox watches</h2>');
    expect(live).toContain('You watch nothing yet.');
    expect(sandboxed).toContain('<code>Acme Outdoor</code>');
    const other = await page.signedIn('other-watcher@example.com');
    expect((await other.get('/account/watches')).text).not.toContain('Acme Outdoor</code>');
  });
});
