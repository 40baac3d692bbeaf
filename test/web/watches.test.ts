// @module-tag runtime
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertSettingsOf } from '../../src/data/alerts.ts';
import { type AccountPageHarness, startAccountPage } from '../support/account-page.ts';
import { validateWebhookPayload } from '../support/contract.ts';
import { type FakeNetwork, fakeNetwork } from '../support/fake-network.ts';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver.ts';

describe('the Watches page', () => {
  let page: AccountPageHarness;
  let receiver: HttpsReceiver;
  let network: FakeNetwork;
  beforeAll(async () => {
    receiver = await startHttpsReceiver({ alsoNamed: ['hooks.example.com'] });
    // The webhook's name resolves to a public address; the connection lands on the local receiver.
    network = fakeNetwork({ 'hooks.example.com': ['93.184.216.34'] }, receiver.port);
    page = await startAccountPage({
      webhooks: { ca: receiver.ca, resolve: network.resolve, connect: network.connect },
    });
  });
  afterAll(async () => {
    await page?.close();
    for (const post of receiver?.received ?? []) validateWebhookPayload('watchNews', post.body);
    await receiver?.close();
  });

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

  const TESTS =
    'Send a test event posts a signed sample watch.news marked test to the webhook and shows how the receiver ' +
    'answered; without a webhook the page says where to set one; a forged form token is 403';
  it(TESTS, async () => {
    const browser = await page.signedIn('watch-tester@example.com');
    await browser.get('/account/watches');
    await browser.post('/account/watches', { kind: 'domain', target: 'acme-outdoor.com' });
    const accountId = await accountOf('watch-tester@example.com');
    const [watch] = await page.db.sql<{ id: string }[]>`SELECT id FROM watches WHERE account_id = ${accountId}`;
    const listed = await browser.get('/account/watches');
    expect(listed.text).toContain(`action="/account/watches/${watch.id}/test"`);
    expect(listed.text).toContain('Send a test event');

    const before = receiver.received.length;
    const none = await browser.post(`/account/watches/${watch.id}/test`, {});
    expect(none.status).toBe(400);
    expect(none.text).toContain('you have none: set one on the <a href="/account/alerts">Alerts page</a> first.');
    expect(none.text).toContain('id="form-problem"');
    expect(receiver.received.length).toBe(before);

    await browser.get('/account/alerts');
    const saved = await browser.post('/account/alerts/webhook', { url: 'https://hooks.example.com/hooks/watch' });
    expect(saved.status).toBe(303);
    const { webhook } = await alertSettingsOf(page.db.sql, accountId);
    await browser.get('/account/watches');
    expect((await browser.post(`/account/watches/${watch.id}/test`, { csrf_token: 'forged' })).status).toBe(403);
    expect(receiver.received.length).toBe(before);

    const sent = await browser.post(`/account/watches/${watch.id}/test`, {});
    expect(sent.status).toBe(303);
    expect(sent.location).toMatch(/^\/account\/watches\?tested=watch_news_test_[0-9a-f]{24}$/);
    expect(receiver.received.length).toBe(before + 1);
    const [post] = receiver.received.slice(before);
    const event = validateWebhookPayload('watchNews', post.body);
    expect(event).toMatchObject({
      type: 'watch.news',
      test: true,
      credits_charged: 0,
      watch: { id: watch.id, kind: 'domain', target: 'acme-outdoor.com' },
    });
    // Signed with the account's secret, as docs/billing.md tells a receiver to check it.
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(post.headers['alk-signature'])) ?? [];
    expect(createHmac('sha256', webhook!.secret).update(`${t}.${post.body}`).digest('hex')).toBe(v1);
    expect(network.connectedTo.at(-1)).toBe('93.184.216.34:443');
    const shown = await browser.get(sent.location!);
    expect(shown.text).toContain(
      `The test event <code>${event.id}</code> was delivered: your endpoint answered HTTP 200.`,
    );

    receiver.answers.push(500);
    const failed = await browser.get((await browser.post(`/account/watches/${watch.id}/test`, {})).location!);
    expect(failed.text).toMatch(
      /The test event <code>watch_news_test_[0-9a-f]{24}<\/code> was not delivered: the endpoint answered 500\./,
    );
    // Another account's test event is not shown; another account's watch is not found.
    const other = await page.signedIn('other-watch-tester@example.com');
    expect((await other.get(sent.location!)).text).not.toContain('The test event');
    expect((await other.post(`/account/watches/${watch.id}/test`, {})).status).toBe(404);
  });
});
