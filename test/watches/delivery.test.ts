// @module-tag runtime
import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eraseAccount } from '../../src/data/account-erasure.ts';
import { addCredits, createAccount, createApiKey } from '../../src/data/accounts.ts';
import { setAlertWebhook, setLowBalanceThreshold } from '../../src/data/alerts.ts';
import { setDailyCap } from '../../src/data/api-keys.ts';
import type { Sql } from '../../src/data/client.ts';
import { connect } from '../../src/data/client.ts';
import { SANDBOX_SEARCH_PATH } from '../../src/data/sandbox.ts';
import { usageByDay } from '../../src/data/usage.ts';
import { ingestObservations } from '../../src/ingest/index.ts';
import { smtpMailer } from '../../src/mail/smtp.ts';
import { MAX_ATTEMPTS, WatchNewsSender } from '../../src/watches/news-sender.ts';
import { observation, resetData, TODAY } from '../ingest/helpers.ts';
import { validateWebhookPayload } from '../support/contract.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { debit } from '../support/debit.ts';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver.ts';
import { startTestSmtp, type TestSmtp } from '../support/mail.ts';
import { insertWatch } from '../support/watches.ts';

/**
 * A receiver's check, written from docs/watches.md ("Verifying a post") alone: the header
 * `Alk-Signature` is `t=<unix seconds>,v1=<hex>`, the HMAC-SHA256 of `<t>.<raw body>` keyed with
 * the signing secret; a timestamp more than 5 minutes old is refused.
 */
function verifiedAsTheDocsSay(secret: string, body: string, header: string): boolean {
  const t = /(?:^|,)t=(\d+)/.exec(header)?.[1];
  const v1 = /(?:^|,)v1=([0-9a-f]+)/.exec(header)?.[1];
  if (!t || !v1 || Math.abs(Date.now() / 1000 - Number(t)) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const SECRET = 'whsec_watch-test-secret';
let db: TestDatabase;
let sandbox: Sql;
let smtp: TestSmtp;
let receiver: HttpsReceiver;
let mailer: ReturnType<typeof smtpMailer>;
let sender: WatchNewsSender;
let emailCount = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  sandbox = connect(db.url, 2, { searchPath: SANDBOX_SEARCH_PATH });
  smtp = await startTestSmtp();
  receiver = await startHttpsReceiver();
  mailer = smtpMailer(smtp.url, 'Advertiser Lookup API <no-reply@localhost>');
  sender = newSender();
});
afterAll(async () => {
  await sender?.stop();
  mailer?.close();
  // Every post the tests made, checked against the contract's webhooks: section.
  for (const post of receiver.received) validateWebhookPayload('watchNews', post.body);
  await receiver?.close();
  await smtp?.close();
  await sandbox?.end();
  await db?.drop();
});
beforeEach(async () => {
  await resetData(db.sql);
  await db.sql`TRUNCATE sandbox.observations, sandbox.identifiers, sandbox.identifier_domains,
    sandbox.identifier_months, sandbox.identifier_month_domains, sandbox.landing_domain_stats`;
  receiver.answers.length = 0;
});
afterEach(() => {
  receiver.received.length = 0;
});

function newSender() {
  return new WatchNewsSender({
    sql: db.sql,
    mailer,
    publicUrl: () => new URL('https://api.example.com'),
    retryBaseMs: 0,
    webhook: { ca: receiver.ca, allowPrivateAddresses: true },
  });
}

/** An account with a verified address, a webhook, and (with `credits`) a key granted them. */
async function brandOwner({ credits = 200, webhook = true }: { credits?: number; webhook?: boolean } = {}) {
  emailCount += 1;
  const email = `owner${emailCount}@example.com`;
  const account = await createAccount(db.sql);
  await db.sql`
    INSERT INTO account_logins (account_id, email, email_normalized, password_hash, email_verified_at)
    VALUES (${account.id}, ${email}, ${email}, '$argon2id$test-only', now())`;
  const key = await createApiKey(db.sql, account.id);
  // The first key's grant, brought to `credits` by the ledger's own path (a charge-free adjustment).
  if (credits !== 200) {
    await db.sql`UPDATE accounts SET balance = ${credits} WHERE id = ${account.id}`;
  }
  if (webhook) await setAlertWebhook(db.sql, account.id, receiver.url, SECRET);
  return { accountId: account.id, keyId: key.id, email };
}

const balanceOf = async (accountId: number) =>
  (await db.sql<{ balance: number }[]>`SELECT balance FROM accounts WHERE id = ${accountId}`)[0].balance;

const ledgerOf = (accountId: number) =>
  db.sql<{ kind: string; amount: number; key_id: number | null; endpoint: string; request_id: string }[]>`
    SELECT kind, amount, key_id, endpoint, request_id FROM ledger
    WHERE account_id = ${accountId} AND kind IN ('charge', 'refund') ORDER BY id`;

const LOAD = [
  observation({ creative_id: 'CR1', advertiser_id: 'AR1', landing_url: 'https://acme-outdoor.com/a' }),
  observation({ creative_id: 'CR2', advertiser_id: 'AR1', landing_url: 'https://shop.example.com/b' }),
  observation({
    creative_id: 'CR3',
    advertiser_id: 'AR2',
    advertiser_name: 'Tent Deals',
    landing_url: 'https://acme-outdoor.com/c',
  }),
];
const load = (records = LOAD, sql: Sql = db.sql) => ingestObservations(sql, records, { today: TODAY });

describe('brand watch: delivery and billing of news (docs/product-rules.md R19.21–R19.27)', () => {
  it('a load with news: one signed post per watch, 5 credits each in the ledger, one digest email', async () => {
    const owner = await brandOwner();
    const domain = await insertWatch(db.sql, { ...owner, kind: 'domain', target: 'acme-outdoor.com' });
    const advertiser = await insertWatch(db.sql, { ...owner, kind: 'advertiser', target: 'Acme Outdoor' });
    await load();
    await sender.sendDue();

    expect(receiver.received).toHaveLength(2);
    const posts = receiver.received.map((post) => {
      expect(verifiedAsTheDocsSay(SECRET, post.body, String(post.headers['alk-signature']))).toBe(true);
      return validateWebhookPayload('watchNews', post.body);
    });
    const byWatch = new Map(posts.map((post) => [post.watch.id, post]));
    expect(byWatch.get(domain.id)).toMatchObject({
      type: 'watch.news',
      test: false,
      credits_charged: 5,
      watch: { kind: 'domain', target: 'acme-outdoor.com', sandbox: false },
      events: [
        { change: 'new_advertiser', advertiser_id: 'AR1', landing_domain: 'acme-outdoor.com', profile: 'few_domains' },
        { change: 'new_advertiser', advertiser_id: 'AR2', advertiser: 'Tent Deals', landing_domain_count: 1 },
      ],
    });
    expect(
      byWatch
        .get(advertiser.id)
        ?.events.map((e: { landing_domain: string }) => e.landing_domain)
        .sort(),
    ).toEqual(['acme-outdoor.com', 'example.com']);

    expect(await ledgerOf(owner.accountId)).toEqual([
      expect.objectContaining({ kind: 'charge', amount: -5, key_id: owner.keyId, endpoint: 'watchNews' }),
      expect.objectContaining({ kind: 'charge', amount: -5, key_id: owner.keyId, endpoint: 'watchNews' }),
    ]);
    expect(await balanceOf(owner.accountId)).toBe(190);
    // Counted in the usage like calls of an operation, under the key that created the watches.
    const today = new Date().toISOString().slice(0, 10);
    expect(await usageByDay(db.sql, owner.accountId, today, today, owner.keyId)).toMatchObject([
      { operation: 'watchNews', calls: 2, refundedCalls: 0, credits: 10 },
    ]);
    const digest = await smtp.next(owner.email);
    expect(digest.subject).toBe('Brand watch: 4 new changes found');
    expect(digest.raw).toContain('new advertiser Tent Deals (AR2)');

    // The same load again finds nothing: no post, no charge, no email.
    await load();
    await sender.sendDue();
    expect(receiver.received).toHaveLength(2);
    expect(await ledgerOf(owner.accountId)).toHaveLength(2);
    expect(smtp.received.filter((mail) => mail.to.includes(owner.email))).toHaveLength(1);
  });

  it('a load with news for 25 accounts: one digest email each, one the mail server refused retried once', async () => {
    const owners = [];
    for (let n = 0; n < 25; n += 1) owners.push(await brandOwner());
    for (const owner of owners) await insertWatch(db.sql, { ...owner, kind: 'domain', target: 'acme-outdoor.com' });
    smtp.refuse(owners[3].email, 1);
    await load();
    await sender.sendDue();
    for (const owner of owners) {
      expect(smtp.received.filter((mail) => mail.to.includes(owner.email))).toHaveLength(1);
      expect((await smtp.next(owner.email)).subject).toBe('Brand watch: 2 new changes found');
    }
    const digests = await db.sql<{ account_id: number; attempts: number; sent: boolean; last_error: string | null }[]>`
      SELECT account_id, attempts, sent_at IS NOT NULL AS sent, last_error FROM watch_digests
      WHERE account_id = ANY(${owners.map((owner) => owner.accountId)}::bigint[]) ORDER BY account_id`;
    expect(digests).toHaveLength(25);
    for (const digest of digests)
      expect(digest).toEqual({
        account_id: digest.account_id,
        attempts: digest.account_id === owners[3].accountId ? 2 : 1,
        sent: true,
        last_error: null,
      });
  });

  it('a receiver that fails then recovers gets the post again with the same id, charged once', async () => {
    const owner = await brandOwner();
    await insertWatch(db.sql, { ...owner, kind: 'domain', target: 'acme-outdoor.com' });
    receiver.answers.push(500, 503);
    await load();
    await sender.sendDue();
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((post) => JSON.parse(post.body).id)).size).toBe(1);
    const [delivery] = await db.sql`SELECT attempts, delivered_at IS NOT NULL AS delivered, billing
      FROM watch_deliveries WHERE account_id = ${owner.accountId}`;
    expect(delivery).toEqual({ attempts: 3, delivered: true, billing: 'paid' });
    expect(await ledgerOf(owner.accountId)).toHaveLength(1);
  });

  it('a post never accepted after the last retry is refunded', async () => {
    const owner = await brandOwner();
    await insertWatch(db.sql, { ...owner, kind: 'domain', target: 'acme-outdoor.com' });
    receiver.answers.push(...Array.from({ length: MAX_ATTEMPTS }, () => 500));
    await load();
    await sender.sendDue();
    expect(receiver.received).toHaveLength(MAX_ATTEMPTS);
    const ledger = await ledgerOf(owner.accountId);
    expect(ledger.map((row) => [row.kind, row.amount, row.endpoint])).toEqual([
      ['charge', -5, 'watchNews'],
      ['refund', 5, 'watchNews'],
    ]);
    expect(await balanceOf(owner.accountId)).toBe(200);
    const [delivery] = await db.sql`SELECT billing, given_up_at IS NOT NULL AS given_up FROM watch_deliveries
      WHERE account_id = ${owner.accountId}`;
    expect(delivery).toEqual({ billing: 'refunded', given_up: true });
    // Refunded, it no longer counts towards the key's spend of the day (its daily cap).
    const [key] = await db.sql`SELECT cap_day_spent FROM api_keys WHERE id = ${owner.keyId}`;
    expect(key).toEqual({ cap_day_spent: 0 });
  });

  it('news the balance does not cover is held, told once by email, and released by a purchase', async () => {
    const owner = await brandOwner({ credits: 7 });
    await insertWatch(db.sql, { ...owner, kind: 'domain', target: 'acme-outdoor.com' });
    await insertWatch(db.sql, { ...owner, kind: 'advertiser', target: 'Acme Outdoor' });
    await load();
    await sender.sendDue();
    // 7 credits cover one delivery: it is charged, the other held; the digest waits for both.
    expect(await balanceOf(owner.accountId)).toBe(2);
    const held = await smtp.next(owner.email);
    expect(held.subject).toBe('Your watch news is held: your balance is out of credits');
    await sender.sendDue();
    expect(smtp.received.filter((mail) => mail.to.includes(owner.email))).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
    const states = () =>
      db.sql`SELECT billing FROM watch_deliveries WHERE account_id = ${owner.accountId} ORDER BY billing`;
    expect(await states()).toEqual([{ billing: 'held' }, { billing: 'paid' }]);

    await addCredits(db.sql, owner.accountId, 100, 'pay_watch_release_1');
    await sender.sendDue();
    expect(await states()).toEqual([{ billing: 'paid' }, { billing: 'paid' }]);
    expect(receiver.received).toHaveLength(2);
    expect(await balanceOf(owner.accountId)).toBe(97);
    expect((await smtp.next(owner.email)).subject).toBe('Brand watch: 4 new changes found');
    expect(await db.sql`SELECT * FROM watch_hold_notices WHERE account_id = ${owner.accountId}`).toEqual([]);
  });

  it(
    "news charges count towards the watch key's daily cap: held at the cap, " + "and the key's next call is capped",
    async () => {
      const owner = await brandOwner();
      await setDailyCap(db.sql, owner.accountId, owner.keyId, 7);
      await insertWatch(db.sql, { ...owner, kind: 'domain', target: 'acme-outdoor.com' });
      await insertWatch(db.sql, { ...owner, kind: 'advertiser', target: 'Acme Outdoor' });
      await load();
      await sender.sendDue();
      await sender.sendDue();
      // 7 a day covers one delivery of 5: it is charged, the other held though the balance covers it.
      const states = () =>
        db.sql`SELECT billing FROM watch_deliveries WHERE account_id = ${owner.accountId} ORDER BY billing`;
      expect(await states()).toEqual([{ billing: 'held' }, { billing: 'paid' }]);
      expect(await balanceOf(owner.accountId)).toBe(195);
      expect(receiver.received).toHaveLength(1);
      const [key] = await db.sql<
        { spent: number }[]
      >`SELECT cap_day_spent AS spent FROM api_keys WHERE id = ${owner.keyId}`;
      expect(key.spent).toBe(5);
      const keyHash = (await db.sql<{ key_hash: Buffer }[]>`SELECT key_hash FROM api_keys WHERE id = ${owner.keyId}`)[0]
        .key_hash;
      const call = await debit(db.sql, {
        keyHash,
        price: 3,
        endpoint: 'getAdvertiserSummary',
        requestId: 'capped-call',
      });
      expect(call).toMatchObject({ outcome: 'capped', dailyCap: 7, spentToday: 5 });

      // A higher cap releases the held news at the next pass.
      await setDailyCap(db.sql, owner.accountId, owner.keyId, 10);
      await sender.sendDue();
      expect(await states()).toEqual([{ billing: 'paid' }, { billing: 'paid' }]);
      expect(await balanceOf(owner.accountId)).toBe(190);
    },
  );

  it("a watch deleted while its news is held is never charged for it, nor is a disabled account's news", async () => {
    const owner = await brandOwner({ credits: 7 });
    await insertWatch(db.sql, { ...owner, kind: 'domain', target: 'acme-outdoor.com' });
    await insertWatch(db.sql, { ...owner, kind: 'advertiser', target: 'Acme Outdoor' });
    const disabled = await brandOwner();
    await insertWatch(db.sql, { ...disabled, kind: 'domain', target: 'acme-outdoor.com' });
    await db.sql`UPDATE accounts SET disabled_at = now() WHERE id = ${disabled.accountId}`;
    await load();
    await sender.sendDue();
    expect((await smtp.next(owner.email)).subject).toBe('Your watch news is held: your balance is out of credits');
    await db.sql`
      UPDATE watches SET deleted_at = now()
      WHERE id = (SELECT watch_id FROM watch_deliveries WHERE account_id = ${owner.accountId} AND billing = 'held')`;
    await addCredits(db.sql, owner.accountId, 100, 'pay_after_delete_1');
    await sender.sendDue();
    expect(await balanceOf(owner.accountId)).toBe(102);
    expect(await ledgerOf(owner.accountId)).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
    // The digest no longer waits for the deleted watch's news, and does not tell it.
    expect((await smtp.next(owner.email)).subject).toBe('Brand watch: 2 new changes found');
    expect(await balanceOf(disabled.accountId)).toBe(200);
    expect(await ledgerOf(disabled.accountId)).toEqual([]);
  });

  it(
    'a deleted account: its watches end, its posts forget the webhook URL, ' + 'and a later load charges nothing',
    async () => {
      const owner = await brandOwner();
      await insertWatch(db.sql, { ...owner, kind: 'domain', target: 'acme-outdoor.com' });
      await load();
      await sender.sendDue();
      expect(await ledgerOf(owner.accountId)).toHaveLength(1);
      await eraseAccount(db.sql, owner.accountId);
      expect(
        await db.sql`SELECT webhook_url, last_error FROM watch_deliveries WHERE account_id = ${owner.accountId}`,
      ).toEqual([{ webhook_url: null, last_error: null }]);
      expect(await db.sql`SELECT 1 FROM watches WHERE account_id = ${owner.accountId} AND deleted_at IS NULL`).toEqual(
        [],
      );
      await load([
        observation({ creative_id: 'CR9', advertiser_id: 'AR9', landing_url: 'https://acme-outdoor.com/z' }),
      ]);
      await sender.sendDue();
      expect(await ledgerOf(owner.accountId)).toHaveLength(1);
      expect(await db.sql`SELECT id FROM watch_deliveries WHERE account_id = ${owner.accountId}`).toHaveLength(1);
    },
  );

  it('a charge that crosses the low-balance threshold sets off the alert, as a call does', async () => {
    const owner = await brandOwner();
    await setLowBalanceThreshold(db.sql, owner.accountId, 198);
    await insertWatch(db.sql, { ...owner, kind: 'domain', target: 'acme-outdoor.com' });
    await load();
    await sender.sendDue();
    expect(await db.sql`SELECT balance, threshold FROM balance_alerts WHERE account_id = ${owner.accountId}`).toEqual([
      { balance: 195, threshold: 198 },
    ]);
  });

  it('a sandbox watch hears of sandbox loads only, free: no ledger row, credits_charged 0', async () => {
    const owner = await brandOwner();
    const watch = await insertWatch(db.sql, { ...owner, kind: 'domain', target: 'acme-outdoor.com', sandbox: true });
    await load(LOAD);
    await sender.sendDue();
    expect(receiver.received).toHaveLength(0);
    await load(LOAD, sandbox);
    await sender.sendDue();
    expect(receiver.received).toHaveLength(1);
    expect(validateWebhookPayload('watchNews', receiver.received[0].body)).toMatchObject({
      credits_charged: 0,
      watch: { id: watch.id, sandbox: true },
    });
    expect(await ledgerOf(owner.accountId)).toEqual([]);
    expect(await balanceOf(owner.accountId)).toBe(200);
  });

  it('two senders at once deliver every one of 60 watches exactly once', async () => {
    const owner = await brandOwner({ credits: 1000 });
    const records = Array.from({ length: 60 }, (_, n) =>
      observation({
        creative_id: `CRX${n}`,
        advertiser_id: `AR9${n}`,
        advertiser_name: `Brand Bidder ${n}`,
        landing_url: `https://brand${n}.com/`,
      }),
    );
    for (let n = 0; n < 60; n += 1) await insertWatch(db.sql, { ...owner, kind: 'domain', target: `brand${n}.com` });
    await load(records);
    const other = newSender();
    await Promise.all([sender.sendDue(), other.sendDue(), sender.sendDue()]);
    await other.stop();
    const ids = receiver.received.map((post) => JSON.parse(post.body).id);
    expect(ids).toHaveLength(60);
    expect(new Set(ids).size).toBe(60);
    expect(await ledgerOf(owner.accountId)).toHaveLength(60);
    expect(await balanceOf(owner.accountId)).toBe(700);
  });
});
