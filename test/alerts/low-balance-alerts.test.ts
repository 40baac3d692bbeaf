// @module-tag runtime
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlertSender, MAX_ATTEMPTS } from '../../src/alerts/alert-sender.ts';
import { addCredits } from '../../src/data/accounts.ts';
import { alertSettingsOf, deliveriesOf, setAlertWebhook, setLowBalanceThreshold } from '../../src/data/alerts.ts';
import { smtpMailer } from '../../src/mail/smtp.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { validateWebhookPayload } from '../support/contract.ts';
import { fakeNetwork } from '../support/fake-network.ts';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver.ts';
import { startTestSmtp, type TestSmtp } from '../support/mail.ts';

/**
 * A receiver's check, written from docs/billing.md ("Verifying a webhook") alone: the header is
 * `t=<unix seconds>,v1=<hex>`, the HMAC-SHA256 of `<t>.<raw body>` keyed with the secret.
 */
function verifiedAsTheDocsSay(secret: string, body: string, header: string): boolean {
  const t = /(?:^|,)t=(\d+)/.exec(header)?.[1];
  const v1 = /(?:^|,)v1=([0-9a-f]+)/.exec(header)?.[1];
  if (!t || !v1 || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** docs/product-rules.md §14: low-balance alerts, one per crossing, sent outside the request path. */
describe('low-balance alerts', () => {
  const SUMMARY = '/api/v1/advertiser?name=Acme'; // 3 credits, a data 404 on the empty database
  let api: TestApi;
  let smtp: TestSmtp;
  let receiver: HttpsReceiver;
  let sender: AlertSender;
  let mailer: ReturnType<typeof smtpMailer>;

  beforeAll(async () => {
    api = await createTestApi({ rateLimit: { requests: 0, windowSeconds: 60 } });
    smtp = await startTestSmtp();
    receiver = await startHttpsReceiver({ alsoNamed: ['93.184.216.34', 'hooks.example.com'] });
    mailer = smtpMailer(smtp.url, 'Advertiser Lookup API <no-reply@localhost>');
    sender = new AlertSender({
      sql: api.db.sql,
      mailer,
      publicUrl: () => new URL('https://api.example.com'),
      retryBaseMs: 0,
      webhook: { ca: receiver.ca, allowPrivateAddresses: true },
    });
  });
  afterAll(async () => {
    await sender.stop();
    mailer.close();
    // Every post of these tests, checked against the contract's webhooks: section (R19.25).
    expect(receiver.received.length).toBeGreaterThan(0);
    for (const post of receiver.received) validateWebhookPayload('lowBalanceAlert', post.body);
    await receiver.close();
    await smtp.close();
    await api.close();
  });

  /** A key whose account has a verified sign-in address, as after sign-up. */
  async function holder(balance: number, email: string) {
    const created = await api.newKey(balance);
    await api.db.sql`
      INSERT INTO account_logins (account_id, email, email_normalized, password_hash, email_verified_at)
      VALUES (${created.accountId}, ${email}, ${email}, '$argon2id$test-only', now())`;
    return created;
  }

  const alertsOf = async (accountId: number) =>
    api.db.sql<{ balance: number; threshold: number }[]>`
      SELECT balance, threshold FROM balance_alerts WHERE account_id = ${accountId} ORDER BY id`;

  it('50 concurrent calls across the threshold: exactly one alert, one email, one signed webhook post', async () => {
    const { key, accountId } = await holder(200, 'crossing@example.com');
    await setLowBalanceThreshold(api.db.sql, accountId, 100);
    await setAlertWebhook(api.db.sql, accountId, receiver.url, 'whsec_test-secret');
    const answers = await Promise.all(Array.from({ length: 50 }, () => api.request(SUMMARY, { key })));
    expect(answers.every((answer) => answer.status === 404)).toBe(true);
    expect(await api.balanceOf(accountId)).toBe(50);
    const alerts = await alertsOf(accountId);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].threshold).toBe(100);
    // The balance the crossing debit statement left (the calls coalesced into it included).
    expect(alerts[0].balance).toBeLessThan(100);
    expect(alerts[0].balance).toBeGreaterThanOrEqual(50);

    // Written by the debit, sent by the sender: nothing went out while the calls ran.
    expect(smtp.received.filter((mail) => mail.to.includes('crossing@example.com'))).toHaveLength(0);
    const before = receiver.received.length;
    await sender.sendDue();
    const mail = await smtp.next('crossing@example.com');
    expect(mail.subject).toBe('Your balance is below 100 credits');
    expect(mail.raw).toContain(`is down to ${alerts[0].balance} credits`);
    expect(mail.link).toBe('https://api.example.com/account/credits');
    const posts = receiver.received.slice(before);
    expect(posts).toHaveLength(1);
    const [post] = posts;
    expect(JSON.parse(post.body)).toEqual({
      id: expect.stringMatching(/^alert_[0-9]+$/),
      type: 'balance.low',
      created_at: expect.any(String),
      account_id: accountId,
      balance: alerts[0].balance,
      threshold: 100,
      test: false,
    });
    expect(post.headers['content-type']).toBe('application/json');
    expect(verifiedAsTheDocsSay('whsec_test-secret', post.body, String(post.headers['alk-signature']))).toBe(true);
    expect(verifiedAsTheDocsSay('whsec_other', post.body, String(post.headers['alk-signature']))).toBe(false);
    expect(verifiedAsTheDocsSay('whsec_test-secret', `${post.body} `, String(post.headers['alk-signature']))).toBe(
      false,
    );

    // Further calls below the threshold raise nothing more, and a second pass sends nothing again.
    for (let i = 0; i < 5; i++) await api.request(SUMMARY, { key });
    expect(await alertsOf(accountId)).toHaveLength(1);
    expect(await sender.sendDue()).toBe(0);
    expect(receiver.received.length).toBe(before + 1);
    const deliveries = await deliveriesOf(api.db.sql, accountId);
    expect(deliveries.map((d) => [d.channel, d.state, d.attempts])).toEqual([
      ['webhook', 'delivered', 1],
      ['email', 'delivered', 1],
    ]);
  });

  it(
    'credits that bring the balance back above the threshold arm the alert again: ' + 'one alert per crossing',
    async () => {
      const { key, accountId } = await holder(60, 'again@example.com');
      await api.request(SUMMARY, { key }); // 57
      await api.request(SUMMARY, { key }); // 54
      await api.request(SUMMARY, { key }); // 51
      expect(await alertsOf(accountId)).toHaveLength(0);
      await api.request(SUMMARY, { key }); // 48: below the default threshold of 50
      expect(await alertsOf(accountId)).toEqual([{ balance: 48, threshold: 50 }]);
      await addCredits(api.db.sql, accountId, 10, `again-${accountId}`); // 58
      await api.request(SUMMARY, { key }); // 55
      expect(await alertsOf(accountId)).toHaveLength(1);
      await api.request(SUMMARY, { key }); // 52
      await api.request(SUMMARY, { key }); // 49
      expect(await alertsOf(accountId)).toEqual([
        { balance: 48, threshold: 50 },
        { balance: 49, threshold: 50 },
      ]);
    },
  );

  it('no threshold, no alert; a threshold set above the balance alerts at once, and once', async () => {
    const { key, accountId } = await holder(60, 'off@example.com');
    await setLowBalanceThreshold(api.db.sql, accountId, null);
    for (let i = 0; i < 5; i++) await api.request(SUMMARY, { key }); // 45
    expect(await alertsOf(accountId)).toHaveLength(0);
    // The balance is already below the new threshold: the holder is told now, as by a crossing.
    expect(await setLowBalanceThreshold(api.db.sql, accountId, 1_000)).toEqual({ balance: 45, alerted: true });
    expect(await alertsOf(accountId)).toEqual([{ balance: 45, threshold: 1_000 }]);
    await sender.sendDue();
    const mail = await smtp.next('off@example.com');
    expect(mail.subject).toBe('Your balance is below 1000 credits');
    expect(mail.raw).toContain('is down to 45 credits, below the alert threshold of 1000 credits');
    // Once: further calls, and another threshold above the balance, raise nothing more.
    await api.request(SUMMARY, { key }); // 42
    expect(await setLowBalanceThreshold(api.db.sql, accountId, 2_000)).toEqual({ balance: 42, alerted: false });
    expect(await alertsOf(accountId)).toHaveLength(1);
    expect((await alertSettingsOf(api.db.sql, accountId)).threshold).toBe(2_000);
    // A threshold the balance meets arms the alert again; the next one below it alerts.
    expect(await setLowBalanceThreshold(api.db.sql, accountId, 40)).toEqual({ balance: 42, alerted: false });
    expect(await setLowBalanceThreshold(api.db.sql, accountId, 100)).toEqual({ balance: 42, alerted: true });
    expect(await alertsOf(accountId)).toEqual([
      { balance: 45, threshold: 1_000 },
      { balance: 42, threshold: 100 },
    ]);
  });

  it('a failing webhook is retried with backoff until it answers 2xx; every attempt is recorded', async () => {
    const { key, accountId } = await holder(52, 'retry@example.com');
    await setAlertWebhook(api.db.sql, accountId, receiver.url, 'whsec_retry');
    receiver.answers.push(500, 503);
    const before = receiver.received.length;
    await api.request(SUMMARY, { key }); // 49
    await sender.sendDue(); // with no backoff in this test, the retries are due at once
    const posts = receiver.received.slice(before);
    expect(posts).toHaveLength(3);
    // One alert: every retry carries the same event id, so a receiver drops what it has seen.
    expect(new Set(posts.map((post) => JSON.parse(post.body).id)).size).toBe(1);
    const [webhook] = (await deliveriesOf(api.db.sql, accountId)).filter((d) => d.channel === 'webhook');
    expect(webhook).toMatchObject({ state: 'delivered', attempts: 3, lastStatus: 200 });
    const attempts = await api.db.sql`
      SELECT attempt, ok, status FROM alert_attempts WHERE delivery_id = ${webhook.id} ORDER BY attempt`;
    expect(attempts).toEqual([
      { attempt: 1, ok: false, status: 500 },
      { attempt: 2, ok: false, status: 503 },
      { attempt: 3, ok: true, status: 200 },
    ]);
  });

  it(`a webhook that keeps failing is given up after ${MAX_ATTEMPTS} attempts; retries wait with backoff`, async () => {
    const { key, accountId } = await holder(52, 'down@example.com');
    await setAlertWebhook(api.db.sql, accountId, receiver.url, 'whsec_down');
    const patient = new AlertSender({
      sql: api.db.sql,
      mailer: { send: async () => {} },
      publicUrl: () => new URL('https://api.example.com'),
      retryBaseMs: 60_000,
      webhook: { ca: receiver.ca, allowPrivateAddresses: true },
    });
    receiver.answers.push(...Array(MAX_ATTEMPTS).fill(500));
    await api.request(SUMMARY, { key });
    await patient.sendDue();
    let [webhook] = (await deliveriesOf(api.db.sql, accountId)).filter((d) => d.channel === 'webhook');
    expect(webhook).toMatchObject({ state: 'retrying', attempts: 1 });
    const [{ wait }] = await api.db.sql<{ wait: number }[]>`
      SELECT extract(epoch FROM next_attempt_at - now())::float AS wait FROM alert_deliveries WHERE id = ${webhook.id}`;
    expect(wait).toBeGreaterThan(50);
    expect(wait).toBeLessThanOrEqual(60);
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      await api.db.sql`UPDATE alert_deliveries SET next_attempt_at = now() WHERE id = ${webhook.id}`;
      await patient.sendDue();
    }
    [webhook] = (await deliveriesOf(api.db.sql, accountId)).filter((d) => d.channel === 'webhook');
    expect(webhook).toMatchObject({ state: 'given up', attempts: MAX_ATTEMPTS, lastStatus: 500 });
    await api.db.sql`UPDATE alert_deliveries SET next_attempt_at = now() WHERE id = ${webhook.id}`;
    expect(await patient.sendDue()).toBe(0);
  });

  it('a webhook URL that reaches a private address is refused unless the operator allows it', async () => {
    const { key, accountId } = await holder(52, 'private@example.com');
    await setAlertWebhook(api.db.sql, accountId, receiver.url, 'whsec_private');
    const strict = new AlertSender({
      sql: api.db.sql,
      mailer: { send: async () => {} },
      publicUrl: () => new URL('https://api.example.com'),
      webhook: { ca: receiver.ca },
    });
    const before = receiver.received.length;
    await api.request(SUMMARY, { key });
    await strict.sendDue();
    expect(receiver.received.length).toBe(before);
    const [webhook] = (await deliveriesOf(api.db.sql, accountId)).filter((d) => d.channel === 'webhook');
    expect(webhook.lastError).toBe('127.0.0.1 is a loopback address');
  });

  it.each([
    ['https://93.184.216.34/hooks/balance', '93.184.216.34:443'],
    ['https://hooks.example.com/hooks/balance', '8.8.8.8:443'],
  ])('with the default configuration an alert reaches a receiver at a public address: %s', async (url, connectedTo) => {
    const { key, accountId } = await holder(52, `public-${connectedTo}@example.com`);
    await setAlertWebhook(api.db.sql, accountId, url, 'whsec_public');
    // Every connection lands on the local receiver, whatever public address it is made to.
    const network = fakeNetwork({ 'hooks.example.com': ['8.8.8.8'] }, receiver.port);
    const strict = new AlertSender({
      sql: api.db.sql,
      mailer: { send: async () => {} },
      publicUrl: () => new URL('https://api.example.com'),
      webhook: { ca: receiver.ca, resolve: network.resolve, connect: network.connect },
    });
    const before = receiver.received.length;
    await api.request(SUMMARY, { key }); // 49: below the default threshold
    await strict.sendDue();
    expect(network.connectedTo).toEqual([connectedTo]);
    const posts = receiver.received.slice(before);
    expect(posts).toHaveLength(1);
    expect(JSON.parse(posts[0].body)).toMatchObject({ type: 'balance.low', account_id: accountId, balance: 49 });
    expect(verifiedAsTheDocsSay('whsec_public', posts[0].body, String(posts[0].headers['alk-signature']))).toBe(true);
    const [webhook] = (await deliveriesOf(api.db.sql, accountId)).filter((d) => d.channel === 'webhook');
    expect(webhook).toMatchObject({ state: 'delivered', attempts: 1, lastStatus: 200 });
  });
});
