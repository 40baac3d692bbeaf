// @module-tag runtime
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { DEFAULT_CREDIT_PACKS } from '../../src/config.ts';
import { createAccount } from '../../src/data/accounts.ts';
import { connect, type Sql } from '../../src/data/client.ts';
import { recordCheckout } from '../../src/data/purchases.ts';
import { StripePayments } from '../../src/payments/stripe-payments.ts';
import { testApp } from '../support/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import {
  paidSession,
  SECRET_KEY,
  type StripeStandIn,
  signed,
  startStripeStandIn,
  stripeEvent,
  WEBHOOK_SECRET,
} from '../support/stripe.ts';

/** docs/product-rules.md §13: the events Stripe posts, each applied exactly once. */
describe('POST /webhooks/stripe', () => {
  const PACK = DEFAULT_CREDIT_PACKS[0]; // 1,000 credits for 1,000 cents
  let db: TestDatabase;
  let app: App;
  let requestPool: Sql;
  let standIn: StripeStandIn;
  let sessions = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    standIn = await startStripeStandIn();
    // A pool like the service's request pool, which reads no array types.
    requestPool = connect(db.url, 10, { fetchArrayTypes: false });
    const payments = new StripePayments(
      requestPool,
      { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: standIn.url },
      DEFAULT_CREDIT_PACKS,
      () => new URL('http://localhost'),
    );
    app = testApp({ sql: db.sql, payments });
  });
  afterAll(async () => {
    await requestPool?.end({ timeout: 5 });
    await standIn?.close();
    await db?.drop();
  });

  function post(payload: string, signature: string | null = signed(payload)) {
    return app.request('/webhooks/stripe', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(signature !== null && { 'Stripe-Signature': signature }) },
      body: payload,
    });
  }

  /** An account with a Checkout Session of PACK, as the account page records it. */
  async function checkout() {
    const account = await createAccount(db.sql);
    sessions += 1;
    const sessionId = `cs_test_webhook_${sessions}`;
    await recordCheckout(db.sql, { sessionId, accountId: account.id, pack: PACK });
    return { accountId: account.id, sessionId, paymentIntent: `pi_test_webhook_${sessions}` };
  }

  async function balanceOf(accountId: number) {
    const [{ balance, ledger }] = await db.sql<{ balance: number; ledger: number }[]>`
      SELECT a.balance, (SELECT coalesce(sum(amount), 0)::bigint FROM ledger WHERE account_id = a.id) AS ledger
      FROM accounts a WHERE a.id = ${accountId}`;
    expect(ledger).toBe(balance);
    return balance;
  }

  const completed = (sessionId: string, paymentIntent: string, id?: string) =>
    stripeEvent('checkout.session.completed', paidSession(sessionId, paymentIntent), id);
  const refunded = (paymentIntent: string, amountRefunded: number) =>
    stripeEvent('charge.refunded', {
      id: 'ch_test',
      object: 'charge',
      payment_intent: paymentIntent,
      amount_refunded: amountRefunded,
    });

  it('a paid checkout.session.completed credits the pack once, under the payment as reference', async () => {
    const { accountId, sessionId, paymentIntent } = await checkout();
    const answer = await post(completed(sessionId, paymentIntent));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ received: true, outcome: 'credited' });
    expect(await balanceOf(accountId)).toBe(1_000);
    const [entry] = await db.sql`SELECT kind, amount, payment_reference FROM ledger WHERE account_id = ${accountId}`;
    expect(entry).toEqual({ kind: 'purchase', amount: 1_000, payment_reference: paymentIntent });
  });

  it('the same event delivered again, or another event for the same payment, credits nothing more', async () => {
    const { accountId, sessionId, paymentIntent } = await checkout();
    const event = completed(sessionId, paymentIntent, 'evt_same');
    expect((await post(event)).status).toBe(200);
    const again = await post(event);
    expect(await again.json()).toEqual({ received: true, outcome: 'already credited' });
    const asyncSucceeded = stripeEvent(
      'checkout.session.async_payment_succeeded',
      paidSession(sessionId, paymentIntent),
    );
    expect((await post(asyncSucceeded)).status).toBe(200);
    expect(await balanceOf(accountId)).toBe(1_000);
  });

  it('20 concurrent deliveries of one payment: one purchase row, the exact balance', async () => {
    const { accountId, sessionId, paymentIntent } = await checkout();
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(completed(sessionId, paymentIntent))));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    const outcomes = await Promise.all(answers.map(async (answer) => (await answer.json()).outcome));
    expect(outcomes.filter((outcome) => outcome === 'credited')).toHaveLength(1);
    const [{ n }] = await db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM ledger WHERE account_id = ${accountId} AND kind = 'purchase'`;
    expect(n).toBe(1);
    expect(await balanceOf(accountId)).toBe(1_000);
  });

  it('an unpaid session credits nothing; a session this service never made is acknowledged and ignored', async () => {
    const { accountId, sessionId, paymentIntent } = await checkout();
    const unpaid = stripeEvent('checkout.session.completed', paidSession(sessionId, paymentIntent, 'unpaid'));
    expect(await (await post(unpaid)).json()).toEqual({ received: true, outcome: 'not paid yet' });
    const stranger = await post(completed('cs_test_not_ours', 'pi_test_not_ours'));
    expect(stranger.status).toBe(200);
    expect(await stranger.json()).toEqual({ received: true, outcome: 'not a session of this service' });
    expect(await balanceOf(accountId)).toBe(0);
  });

  it(
    'a partial refund takes back its share of the credits; a ' + 'full refund the rest; repeats change nothing',
    async () => {
      const { accountId, sessionId, paymentIntent } = await checkout();
      await post(completed(sessionId, paymentIntent));
      expect(await (await post(refunded(paymentIntent, 250))).json()).toEqual({ received: true, outcome: 'reversed' });
      expect(await balanceOf(accountId)).toBe(750);
      expect(await (await post(refunded(paymentIntent, 250))).json()).toEqual({
        received: true,
        outcome: 'nothing more',
      });
      // Reordered: an older, smaller refund amount arriving late takes nothing back.
      await post(refunded(paymentIntent, 1_000));
      await post(refunded(paymentIntent, 250));
      expect(await balanceOf(accountId)).toBe(0);
      const reversals = await db.sql`
      SELECT amount, owed FROM ledger WHERE account_id = ${accountId} AND kind = 'reversal' ORDER BY id`;
      expect(reversals).toEqual([
        { amount: -250, owed: 0 },
        { amount: -750, owed: 0 },
      ]);
    },
  );

  it('a refund beyond the balance takes what the balance has and records the rest as owed', async () => {
    const { accountId, sessionId, paymentIntent } = await checkout();
    await post(completed(sessionId, paymentIntent));
    await db.sql`
      WITH spent AS (UPDATE accounts SET balance = balance - 900 WHERE id = ${accountId} RETURNING id, balance)
      INSERT INTO ledger (account_id, kind, amount, balance_after, endpoint)
      SELECT id, 'charge', -900, balance, 'test' FROM spent`;
    await post(refunded(paymentIntent, 1_000));
    expect(await balanceOf(accountId)).toBe(0);
    const [reversal] =
      await db.sql`SELECT amount, owed FROM ledger WHERE account_id = ${accountId} AND kind = 'reversal'`;
    expect(reversal).toEqual({ amount: -100, owed: 900 });
  });

  it('a dispute takes all the credits back, whatever was refunded before', async () => {
    const { accountId, sessionId, paymentIntent } = await checkout();
    await post(completed(sessionId, paymentIntent));
    await post(refunded(paymentIntent, 100));
    const dispute = stripeEvent('charge.dispute.created', {
      id: 'dp_test',
      object: 'dispute',
      payment_intent: paymentIntent,
    });
    expect((await post(dispute)).status).toBe(200);
    expect((await post(dispute)).status).toBe(200);
    expect(await balanceOf(accountId)).toBe(0);
  });

  it('concurrent refund and dispute deliveries of one payment take its credits back once', async () => {
    const reversals = async (accountId: number) =>
      db.sql<{ amount: number; owed: number }[]>`
        SELECT amount, owed FROM ledger WHERE account_id = ${accountId} AND kind = 'reversal'`;
    // 20 copies of one partial refund at once: one reversal of its share.
    const first = await checkout();
    await post(completed(first.sessionId, first.paymentIntent));
    const partial = refunded(first.paymentIntent, 250);
    const copies = await Promise.all(Array.from({ length: 20 }, () => post(partial)));
    expect(copies.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(await reversals(first.accountId)).toEqual([{ amount: -250, owed: 0 }]);
    expect(await balanceOf(first.accountId)).toBe(750);
    // Partial refunds, a full refund and a dispute, all at once in any order: the pack, once.
    const second = await checkout();
    await post(completed(second.sessionId, second.paymentIntent));
    const dispute = stripeEvent('charge.dispute.created', { id: 'dp_test', payment_intent: second.paymentIntent });
    const mixed = [100, 250, 600, 1_000].flatMap((amount) => Array(4).fill(refunded(second.paymentIntent, amount)));
    const answers = await Promise.all([...mixed, ...Array(4).fill(dispute)].map((event) => post(event)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    const taken = (await reversals(second.accountId)).reduce((sum, row) => sum + row.amount, 0);
    expect(taken).toBe(-1_000);
    expect(await balanceOf(second.accountId)).toBe(0);
    const [purchase] = await db.sql`
      SELECT credits_reversed, amount_refunded FROM credit_purchases WHERE checkout_session_id = ${second.sessionId}`;
    expect(purchase).toEqual({ credits_reversed: 1_000, amount_refunded: 1_000 });
  });

  it('a refund naming a payment no event of its session named finds the session through Stripe', async () => {
    const { accountId, sessionId } = await checkout();
    // Credited with no payment id: the session itself is the reference.
    const withoutPayment = stripeEvent('checkout.session.completed', paidSession(sessionId, null));
    expect((await (await post(withoutPayment)).json()).outcome).toBe('credited');
    standIn.sessionOfPayment.set('pi_known_to_stripe', sessionId);
    const answer = await post(refunded('pi_known_to_stripe', 1_000));
    expect(answer.status).toBe(200);
    expect(await balanceOf(accountId)).toBe(0);
    // A payment Stripe knows no session of: 409, Stripe retries.
    expect((await post(refunded('pi_unknown_to_stripe', 1_000))).status).toBe(409);
  });

  it(
    'a refund that arrives before its payment is answered 409 ' + '(Stripe retries) and applies once the payment is in',
    async () => {
      const { accountId, sessionId, paymentIntent } = await checkout();
      const early = await post(refunded(paymentIntent, 1_000));
      expect(early.status).toBe(409);
      expect((await early.json()).error).toBe('payment_not_credited');
      await post(completed(sessionId, paymentIntent));
      expect(await balanceOf(accountId)).toBe(1_000);
      expect((await post(refunded(paymentIntent, 1_000))).status).toBe(200);
      expect(await balanceOf(accountId)).toBe(0);
    },
  );

  it(
    'one session credits its pack once whatever payment ids its events name; ' + 'refunds of any of them find it',
    async () => {
      const { accountId, sessionId } = await checkout();
      const session = (paymentIntent: unknown) =>
        stripeEvent('checkout.session.completed', { ...paidSession(sessionId, null), payment_intent: paymentIntent });
      const outcomes = [];
      for (const paymentIntent of [
        'pi_first',
        'pi_second',
        null,
        { id: 'pi_expanded', object: 'payment_intent', latest_charge: 'ch_expanded' },
      ])
        outcomes.push((await (await post(session(paymentIntent))).json()).outcome);
      expect(outcomes).toEqual(['credited', 'already credited', 'already credited', 'already credited']);
      expect(await balanceOf(accountId)).toBe(1_000);
      const entries = await db.sql`SELECT kind, payment_reference FROM ledger WHERE account_id = ${accountId}`;
      expect(entries).toEqual([{ kind: 'purchase', payment_reference: 'pi_first' }]);
      // A refund naming the second id applies, once; one naming the expanded one's charge takes the rest.
      const second = await post(refunded('pi_second', 400));
      expect(second.status).toBe(200);
      expect(await balanceOf(accountId)).toBe(600);
      const byCharge = stripeEvent('charge.refunded', { id: 'ch_expanded', object: 'charge', amount_refunded: 1_000 });
      expect((await post(byCharge)).status).toBe(200);
      expect(await balanceOf(accountId)).toBe(0);
      const reversals = await db.sql`
      SELECT l.amount, p.payment_reference FROM ledger l JOIN ledger p ON p.id = l.reversal_of
      WHERE l.account_id = ${accountId} AND l.kind = 'reversal' ORDER BY l.id`;
      expect(reversals).toEqual([
        { amount: -400, payment_reference: 'pi_first' },
        { amount: -600, payment_reference: 'pi_first' },
      ]);
    },
  );

  it('a session paid without a payment id first, then with one, out of order and at once: one credit', async () => {
    const { accountId, sessionId } = await checkout();
    const withPayment = (paymentIntent: string | null) =>
      stripeEvent('checkout.session.async_payment_succeeded', paidSession(sessionId, paymentIntent));
    expect((await (await post(withPayment(null))).json()).outcome).toBe('credited');
    const answers = await Promise.all(
      ['pi_late_a', 'pi_late_b', null, 'pi_late_a', 'pi_late_c'].flatMap((id) => [
        post(withPayment(id)),
        post(withPayment(id)),
      ]),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(await balanceOf(accountId)).toBe(1_000);
    const [{ n }] = await db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM ledger WHERE account_id = ${accountId} AND kind = 'purchase'`;
    expect(n).toBe(1);
    // The first reference recorded is the session itself; a dispute naming a later payment finds it.
    const dispute = stripeEvent('charge.dispute.created', {
      id: 'dp_late',
      charge: 'ch_x',
      payment_intent: 'pi_late_b',
    });
    expect((await post(dispute)).status).toBe(200);
    expect(await balanceOf(accountId)).toBe(0);
  });

  it('concurrent first deliveries of one session naming different payment ids credit it once', async () => {
    const { accountId, sessionId } = await checkout();
    const ids = Array.from({ length: 12 }, (_, i) => `pi_race_${i}`);
    const answers = await Promise.all(ids.map((id) => post(completed(sessionId, id))));
    const outcomes = await Promise.all(answers.map(async (answer) => (await answer.json()).outcome));
    expect(outcomes.filter((outcome) => outcome === 'credited')).toHaveLength(1);
    expect(await balanceOf(accountId)).toBe(1_000);
    // Every id any of them named now finds the purchase.
    for (const id of ids.slice(0, 3)) expect((await post(refunded(id, 1_000))).status, id).toBe(200);
    expect(await balanceOf(accountId)).toBe(0);
  });

  it(
    'an event timestamped more than 5 minutes ahead is refused with 400, ' +
      'like a stale one; within 5 minutes it applies',
    async () => {
      const { accountId, sessionId, paymentIntent } = await checkout();
      const event = completed(sessionId, paymentIntent);
      const now = Math.floor(Date.now() / 1000);
      const ahead = await post(event, signed(event, WEBHOOK_SECRET, now + 600));
      expect(ahead.status).toBe(400);
      const body = await ahead.json();
      expect(body.error).toBe('invalid_signature');
      expect(body.message).toMatch(/future/);
      expect(await balanceOf(accountId)).toBe(0);
      expect((await post(event, signed(event, WEBHOOK_SECRET, now + 60))).status).toBe(200);
      expect(await balanceOf(accountId)).toBe(1_000);
    },
  );

  it(
    'bad signature, stale timestamp, no signature, malformed body, ' + 'unknown type: a clear 400 and nothing credited',
    async () => {
      const { accountId, sessionId, paymentIntent } = await checkout();
      const event = completed(sessionId, paymentIntent);
      const cases: [string, Response, string][] = [
        ['no signature', await post(event, null), 'missing_signature'],
        ['another secret', await post(event, signed(event, 'whsec_someone_else')), 'invalid_signature'],
        ['a changed body', await post(event.replace('"paid"', '"paid" '), signed(event)), 'invalid_signature'],
        [
          'stale',
          await post(event, signed(event, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 600)),
          'invalid_signature',
        ],
        ['not JSON', await post('{"id": "evt_', signed('{"id": "evt_')), 'malformed_event'],
        [
          'no data',
          await post('{"id":"evt_x","type":"charge.refunded"}', signed('{"id":"evt_x","type":"charge.refunded"}')),
          'malformed_event',
        ],
        ['unknown type', await post(stripeEvent('customer.created', { id: 'cus_1' })), 'unsupported_event_type'],
        [
          'refund without amount',
          await post(stripeEvent('charge.refunded', { id: 'ch_1', payment_intent: paymentIntent })),
          'malformed_event',
        ],
      ];
      for (const [what, answer, error] of cases) {
        expect(answer.status, what).toBe(400);
        const body = await answer.json();
        expect(body.error, what).toBe(error);
        expect(body.message.length, what).toBeGreaterThan(10);
      }
      expect(await balanceOf(accountId)).toBe(0);
    },
  );
});
