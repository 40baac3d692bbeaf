// @module-tag runtime
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertSender } from '../../src/alerts/alert-sender.ts';
import { sendTestEvent } from '../../src/alerts/test-event.ts';
import { alertSettingsOf } from '../../src/data/alerts.ts';
import { type AccountPageHarness, createKeyOnPage, startAccountPage } from '../support/account-page.ts';
import { validateWebhookPayload } from '../support/contract.ts';
import { type FakeNetwork, fakeNetwork } from '../support/fake-network.ts';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver.ts';
import type { WebClient } from '../support/web.ts';

/** docs/product-rules.md §14 on the account page: a key's daily cap, the alert threshold and webhook. */
describe('spending controls on the account page', () => {
  let page: AccountPageHarness;
  let receiver: HttpsReceiver;
  let network: FakeNetwork;
  beforeAll(async () => {
    receiver = await startHttpsReceiver({ alsoNamed: ['hooks.example.com', 'example.com'] });
    // Every connection lands on the local receiver, whatever public address it is made to.
    network = fakeNetwork(
      {
        'example.com': ['93.184.216.34'],
        'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
        'inside.example.com': ['93.184.216.34', '10.0.0.7'],
        'metadata.example.com': ['::ffff:169.254.169.254'],
      },
      receiver.port,
    );
    page = await startAccountPage({
      webhooks: { ca: receiver.ca, resolve: network.resolve, connect: network.connect },
    });
  });
  afterAll(async () => {
    await page?.close();
    // Every post of these tests (alerts and test events), checked against the contract's webhooks: (R19.25).
    for (const post of receiver?.received ?? []) validateWebhookPayload('lowBalanceAlert', post.body);
    await receiver?.close();
  });

  async function keyOf(browser: WebClient, name: string) {
    const { key } = await createKeyOnPage(browser, { name });
    const [{ id, account_id }] = await page.db.sql<{ id: number; account_id: number }[]>`
      SELECT id, account_id FROM api_keys WHERE display_prefix = ${key.slice(0, 12)}`;
    return { key, id, accountId: account_id };
  }

  const summary = (key: string) =>
    page.app.request('/api/v1/advertiser?name=Acme', { headers: { Authorization: `Bearer ${key}` } });

  it('a daily cap set on the keys page stops the key at the cap; the list shows spend and cap', async () => {
    const browser = await page.signedIn('capper@example.com');
    const { key, id } = await keyOf(browser, 'script');
    const form = await browser.get(`/account/keys/${id}/cap`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('Daily cap of “script”');
    const saved = await browser.post(`/account/keys/${id}/cap`, { daily_cap: '6' });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe(`/account/keys?capped=${id}`);
    expect((await browser.get(`/account/keys?capped=${id}`)).text).toContain(
      '“script” may spend up to 6 credits per UTC day; 0 are spent today.',
    );
    expect((await summary(key)).status).toBe(404);
    expect((await summary(key)).status).toBe(404);
    const refused = await summary(key);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: 'daily_cap_reached', daily_cap: 6, spent_today: 6 });
    // At its cap, the key stands out in the list.
    expect((await browser.get('/account/keys')).text).toContain(
      '<span class="at-cap">6 of 6 today <strong class="state capped">cap reached</strong>',
    );

    expect((await browser.post(`/account/keys/${id}/cap`, { daily_cap: '' })).status).toBe(303);
    expect((await browser.get(`/account/keys?capped=${id}`)).text).toContain('“script” has no daily cap now.');
    expect((await summary(key)).status).toBe(404);
  });

  it(
    "every key's spend today counts, capped or not: the cap form, getAccountUsage and a cap set later " + 'agree',
    async () => {
      const browser = await page.signedIn('uncapped@example.com');
      const { key, id } = await keyOf(browser, 'live');
      expect((await summary(key)).status).toBe(404);
      expect((await summary(key)).status).toBe(404);
      expect((await browser.get('/account/keys')).text).toContain('6 today, <span class="muted">no cap</span>');
      expect((await browser.get(`/account/keys/${id}/cap`)).text).toContain('Spent today: <strong>6</strong> credits');
      expect((await browser.post(`/account/keys/${id}/cap`, { daily_cap: '9' })).status).toBe(303);
      expect((await browser.get(`/account/keys?capped=${id}`)).text).toContain(
        '“live” may spend up to 9 credits per UTC day; 6 are spent today.',
      );
      const usage = await page.app.request('/api/v1/account/usage', { headers: { Authorization: `Bearer ${key}` } });
      expect((await usage.json()).daily_caps).toEqual([
        { key_prefix: key.slice(0, 12), name: 'live', daily_cap: 9, spent_today: 6 },
      ]);
      expect((await browser.get('/account/keys')).text).not.toContain('cap reached'); // 6 of 9: room for a call
      expect((await summary(key)).status).toBe(404);
      const refused = await summary(key);
      expect(await refused.json()).toMatchObject({ error: 'daily_cap_reached', daily_cap: 9, spent_today: 9 });

      // A test key's calls are free, and count at what they would cost, as with a cap (§17).
      const { key: testKey } = await createKeyOnPage(browser, { name: 'sandbox', test: 'on' });
      const [{ id: testId }] = await page.db.sql<{ id: number }[]>`
      SELECT id FROM api_keys WHERE display_prefix = ${testKey.slice(0, 17)}`;
      const sandboxCall = () =>
        page.app.request('/api/v1/account/usage', { headers: { Authorization: `Bearer ${testKey}` } });
      expect((await sandboxCall()).status).toBe(200); // free in every way: counts nothing
      expect((await summary(testKey)).status).not.toBe(403);
      expect((await browser.get(`/account/keys/${testId}/cap`)).text).toContain(
        'Spent today: <strong>3</strong> credits',
      );
      expect((await browser.post(`/account/keys/${testId}/cap`, { daily_cap: '5' })).status).toBe(303);
      expect(await (await summary(testKey)).json()).toMatchObject({ error: 'daily_cap_reached', spent_today: 3 });
    },
  );

  it('a cap that is no whole number is refused with the reason, next to the field; nothing changes', async () => {
    const browser = await page.signedIn('badcap@example.com');
    const { id } = await keyOf(browser, 'ci');
    for (const daily_cap of ['-1', '0', '2.5', 'ten', '99999999999999']) {
      const refused = await browser.post(`/account/keys/${id}/cap`, { daily_cap });
      expect(refused.status, daily_cap).toBe(400);
      expect(refused.text).toContain('Enter a whole number of credits from 1 to 1,000,000,000,000');
      expect(refused.text).toContain('aria-describedby="form-problem"');
    }
    const [{ daily_cap }] = await page.db.sql`SELECT daily_cap FROM api_keys WHERE id = ${id}`;
    expect(daily_cap).toBeNull();
  });

  it("another account's key cannot be capped or even looked at", async () => {
    const owner = await page.signedIn('owner@example.com');
    const { id } = await keyOf(owner, 'mine');
    const stranger = await page.signedIn('stranger@example.com');
    await stranger.get('/account/keys');
    expect((await stranger.get(`/account/keys/${id}/cap`)).status).toBe(404);
    expect((await stranger.post(`/account/keys/${id}/cap`, { daily_cap: '1' })).status).toBe(404);
    const [{ daily_cap }] = await page.db.sql`SELECT daily_cap FROM api_keys WHERE id = ${id}`;
    expect(daily_cap).toBeNull();
  });

  it('the alerts page sets the threshold (50 by default) and an HTTPS webhook with its signing secret', async () => {
    const browser = await page.signedIn('alerts@example.com');
    const { accountId } = await keyOf(browser, 'prod');
    const shown = await browser.get('/account/alerts');
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('value="50"');
    expect(shown.text).toContain('No alert was sent yet.');

    expect((await browser.post('/account/alerts/threshold', { threshold: '150' })).status).toBe(303);
    expect((await browser.get('/account/alerts?saved=threshold')).text).toContain('The alert threshold is saved.');
    expect((await alertSettingsOf(page.db.sql, accountId)).threshold).toBe(150);

    const insecure = await browser.post('/account/alerts/webhook', { url: 'http://example.com/hook' });
    expect(insecure.status).toBe(400);
    expect(insecure.text).toContain('The webhook must be an https:// URL.');
    expect((await browser.post('/account/alerts/webhook', { url: 'https://example.com/hook' })).status).toBe(303);
    const { webhook } = await alertSettingsOf(page.db.sql, accountId);
    expect(webhook?.url).toBe('https://example.com/hook');
    expect(webhook?.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect((await browser.get('/account/alerts')).text).toContain(webhook!.secret);

    expect((await browser.post('/account/alerts/threshold', { threshold: '' })).status).toBe(303);
    expect((await alertSettingsOf(page.db.sql, accountId)).threshold).toBeNull();
    expect((await browser.post('/account/alerts/webhook/remove', {})).status).toBe(303);
    expect((await alertSettingsOf(page.db.sql, accountId)).webhook).toBeNull();
    expect((await browser.post('/account/alerts/threshold', { threshold: 'lots' })).status).toBe(400);
  });

  it.each([
    ['https://10.0.0.1/hook', 'Alerts are posted to public addresses only: 10.0.0.1 is a private address.'],
    [
      'https://[::ffff:127.0.0.1]/hook',
      'Alerts are posted to public addresses only: ::ffff:7f00:1 leads to 127.0.0.1 (IPv4-mapped), a loopback address.',
    ],
    [
      'https://inside.example.com/hook',
      'Alerts are posted to public addresses only: 10.0.0.7 is a private address (inside.example.com resolves to it).',
    ],
    [
      'https://metadata.example.com/hook',
      'Alerts are posted to public addresses only: ::ffff:169.254.169.254 leads to 169.254.169.254 (IPv4-mapped), ' +
        'a link-local address (metadata.example.com resolves to it).',
    ],
  ])(
    'a webhook URL that is or resolves to a private address is refused on save, the reason next to the field: %s',
    async (url, reason) => {
      const browser = await page.signedIn(`private-${new URL(url).hostname.replace(/\W/g, '')}@example.com`);
      const { accountId } = await keyOf(browser, 'prod');
      await browser.get('/account/alerts');
      const refused = await browser.post('/account/alerts/webhook', { url });
      expect(refused.status).toBe(400);
      expect(refused.text).toContain(reason);
      expect(refused.text).toContain('aria-describedby="form-problem"');
      expect(refused.text).toContain(`value="${url}"`);
      expect((await alertSettingsOf(page.db.sql, accountId)).webhook).toBeNull();
    },
  );

  it('a webhook whose host does not resolve now is saved, and the page says alerts cannot reach it yet', async () => {
    const browser = await page.signedIn('unresolved@example.com');
    const { accountId } = await keyOf(browser, 'prod');
    await browser.get('/account/alerts');
    const saved = await browser.post('/account/alerts/webhook', { url: 'https://soon.example.com/hook' });
    expect(saved.status).toBe(303);
    expect(saved.location).toBe('/account/alerts?saved=webhook-unresolved');
    expect((await browser.get(saved.location!)).text).toContain(
      'The webhook is saved. Its host name does not resolve now, so alerts cannot reach it until it does',
    );
    expect((await alertSettingsOf(page.db.sql, accountId)).webhook?.url).toBe('https://soon.example.com/hook');
  });

  it('a threshold set above the balance alerts at once, and the alerts page says so', async () => {
    const browser = await page.signedIn('above@example.com');
    const { accountId } = await keyOf(browser, 'prod');
    const alerts = () => page.db.sql`SELECT balance, threshold FROM balance_alerts WHERE account_id = ${accountId}`;
    await browser.get('/account/alerts');
    const saved = await browser.post('/account/alerts/threshold', { threshold: '500' });
    expect(saved.location).toBe('/account/alerts?saved=threshold-alerted');
    const shown = await browser.get(saved.location!);
    expect(shown.text).toContain('Your balance is already below it, so an alert is sent now');
    expect(shown.text).toContain('is below your alert threshold of 500 credits');
    expect(await alerts()).toEqual([{ balance: 200, threshold: 500 }]);

    // Raised once: a higher threshold says the alert was already sent, and sends none.
    expect((await browser.post('/account/alerts/threshold', { threshold: '600' })).location).toBe(
      '/account/alerts?saved=threshold-below',
    );
    expect((await browser.get('/account/alerts?saved=threshold-below')).text).toContain(
      'an alert was already sent for this low balance',
    );
    expect(await alerts()).toHaveLength(1);
    expect((await browser.post('/account/alerts/threshold', { threshold: '' })).location).toBe(
      '/account/alerts?saved=threshold',
    );
    expect((await browser.get('/account/alerts')).text).not.toContain('low-balance-warning');
  });

  it('the Overview warns while the balance is below the alert threshold', async () => {
    const browser = await page.signedIn('warned@example.com');
    await keyOf(browser, 'prod');
    expect((await browser.get('/account')).text).not.toContain('low-balance-warning');
    await browser.get('/account/alerts');
    await browser.post('/account/alerts/threshold', { threshold: '500' });
    const overview = (await browser.get('/account')).text;
    expect(overview).toContain('data-testid="low-balance-warning"');
    expect(overview).toMatch(
      /Your balance, <strong>200<\/strong> credits, is below your alert threshold of 500 credits/,
    );
    expect(overview).toContain('<a href="/account/credits">Buy more credits</a>');
    // At or under the balance, or no alert: no warning.
    await browser.post('/account/alerts/threshold', { threshold: '200' });
    expect((await browser.get('/account')).text).not.toContain('low-balance-warning');
    await browser.post('/account/alerts/threshold', { threshold: '500' });
    await browser.post('/account/alerts/threshold', { threshold: '' });
    expect((await browser.get('/account')).text).not.toContain('low-balance-warning');
  });

  it('every delivery of an alert is listed on the page with its state', async () => {
    const browser = await page.signedIn('listed@example.com');
    const { key } = await keyOf(browser, 'prod');
    await browser.post('/account/alerts/threshold', { threshold: '199' });
    expect((await summary(key)).status).toBe(404); // 200 → 197: below 199
    const sender = new AlertSender({
      sql: page.db.sql,
      mailer: { send: async () => {} },
      publicUrl: () => new URL('http://localhost'),
    });
    await sender.sendDue();
    const listed = await browser.get('/account/alerts');
    expect(listed.text).toContain('data-testid="deliveries"');
    expect(listed.text).toContain('197 (below 199)');
    expect(listed.text).toContain('<code>listed@example.com</code>');
    expect(listed.text).toMatch(/<span class="state">delivered<\/span>/);
  });

  /** The signature as docs/billing.md tells a receiver to check it. */
  const signedWith = (secret: string, body: string, header: string) => {
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header) ?? [];
    return v1 === createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  };

  it('Send a test event posts a signed sample alert to the webhook now and shows the result on the page', async () => {
    const browser = await page.signedIn('tester@example.com');
    const { accountId } = await keyOf(browser, 'prod');
    await browser.get('/account/alerts');
    await browser.post('/account/alerts/webhook', { url: 'https://hooks.example.com/hooks/balance' });
    const { webhook } = await alertSettingsOf(page.db.sql, accountId);
    const shown = await browser.get('/account/alerts');
    expect(shown.text).toContain('Send a test event');
    expect(shown.text).toContain('No test event was sent yet.');

    const before = receiver.received.length;
    const sent = await browser.post('/account/alerts/webhook/test', {});
    expect(sent.status).toBe(303);
    expect(sent.location).toBe('/account/alerts?tested=1');
    const [post] = receiver.received.slice(before);
    expect(receiver.received.length).toBe(before + 1);
    const event = JSON.parse(post.body);
    expect(event).toEqual({
      id: expect.stringMatching(/^test_[0-9a-f]{24}$/),
      type: 'balance.low',
      created_at: expect.any(String),
      account_id: accountId,
      balance: 200,
      threshold: 50,
      test: true,
    });
    expect(signedWith(webhook!.secret, post.body, String(post.headers['alk-signature']))).toBe(true);
    // Reached at the public address the name resolves to, never anywhere else.
    expect(network.connectedTo.at(-1)).toBe('93.184.216.34:443');
    const result = await browser.get(sent.location!);
    expect(result.text).toContain(
      `The test event <code>${event.id}</code> was delivered: your endpoint answered HTTP 200.`,
    );
    expect(result.text).toContain('data-testid="test-events"');
    expect(result.text).toContain('delivered, HTTP 200');
    // A test event is no alert: nothing is recorded as one.
    expect(await page.db.sql`SELECT id FROM balance_alerts WHERE account_id = ${accountId}`).toHaveLength(0);

    receiver.answers.push(500);
    await browser.post('/account/alerts/webhook/test', {});
    const failed = await browser.get('/account/alerts?tested=1');
    expect(failed.text).toMatch(
      /The test event <code>test_[0-9a-f]{24}<\/code> was not delivered: the endpoint answered 500\./,
    );
    expect(failed.text).toContain('failed, HTTP 500');
  });

  it('test events are CSRF-protected and limited to 10 an hour per account; no webhook, no test event', async () => {
    const browser = await page.signedIn('flooder@example.com');
    await keyOf(browser, 'prod');
    await browser.get('/account/alerts');
    const none = await browser.post('/account/alerts/webhook/test', {});
    expect(none.status).toBe(400);
    expect(none.text).toContain('Save a webhook first: test events go to it.');
    await browser.post('/account/alerts/webhook', { url: 'https://hooks.example.com/hooks/balance' });
    await browser.get('/account/alerts');

    const before = receiver.received.length;
    expect((await browser.post('/account/alerts/webhook/test', { csrf_token: 'forged' })).status).toBe(403);
    expect(receiver.received.length).toBe(before);
    for (let i = 0; i < 10; i++) expect((await browser.post('/account/alerts/webhook/test', {})).status).toBe(303);
    const refused = await browser.post('/account/alerts/webhook/test', {});
    expect(refused.status).toBe(429);
    expect(refused.text).toContain('You sent 10 test events in the last hour: try again later.');
    expect(refused.text).toContain('id="form-problem"');
    expect(receiver.received.length).toBe(before + 10);
  });

  it(
    'parallel test events never pass a limit together; ' +
      'one address receives at most its limit from all accounts, under any name or spelling',
    async () => {
      const webhook = { ca: receiver.ca, resolve: network.resolve, connect: network.connect };
      const accounts: number[] = [];
      // Two names of one address: hooks.example.com and example.com both resolve to 93.184.216.34.
      for (const [name, url] of [
        ['parallel', 'https://hooks.example.com/parallel'],
        ['other', 'https://hooks.example.com/other'],
        ['third', 'https://example.com/third'],
      ]) {
        const browser = await page.signedIn(`${name}-tests@example.com`);
        await browser.get('/account/alerts');
        await browser.post('/account/alerts/webhook', { url });
        const [{ account_id }] = await page.db.sql<{ account_id: number }[]>`
        SELECT account_id FROM account_logins WHERE email = ${`${name}-tests@example.com`}`;
        accounts.push(account_id);
      }
      const before = receiver.received.length;
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, () =>
          sendTestEvent(page.db.sql, accounts[0], { webhook, limits: { perAccount: 4, perHost: 1_000 } }),
        ),
      );
      expect(outcomes.filter((outcome) => 'sent' in outcome)).toHaveLength(4);
      expect(outcomes.filter((outcome) => 'refused' in outcome && outcome.refused === 'account limit')).toHaveLength(8);
      // 93.184.216.34 had 4 of these (and the earlier tests'): two more, and the next is refused.
      const [{ count }] = await page.db.sql<{ count: number }[]>`
      SELECT count(*)::integer AS count FROM alert_test_events WHERE host = '93.184.216.34'`;
      const perHost = count + 2;
      expect(await sendTestEvent(page.db.sql, accounts[1], { webhook, limits: { perAccount: 4, perHost } })).toEqual({
        sent: { status: 200, error: null },
      });
      expect(await sendTestEvent(page.db.sql, accounts[2], { webhook, limits: { perAccount: 4, perHost } })).toEqual({
        sent: { status: 200, error: null },
      });
      expect(await sendTestEvent(page.db.sql, accounts[2], { webhook, limits: { perAccount: 4, perHost } })).toEqual({
        refused: 'host limit',
      });
      expect(receiver.received.length).toBe(before + 6);

      // The same address in its IPv4-mapped IPv6 spellings is the same address, counted once.
      const spelled = (address: string) => {
        const renamed = fakeNetwork({ 'hooks.example.com': [address], 'example.com': [address] }, receiver.port);
        return { ...webhook, resolve: renamed.resolve, connect: renamed.connect };
      };
      const limits = { perAccount: 10, perHost };
      for (const address of ['::ffff:5db8:d822', '::FFFF:93.184.216.34'])
        expect(await sendTestEvent(page.db.sql, accounts[1], { webhook: spelled(address), limits })).toEqual({
          refused: 'host limit',
        });
      expect(receiver.received.length).toBe(before + 6);
    },
  );
});
