// @module-tag runtime
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/data/accounts.ts';
import { setAlertWebhook } from '../../src/data/alerts.ts';
import { sendWatchTestEvent } from '../../src/watches/test-event.ts';
import { validateWebhookPayload } from '../support/contract.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver.ts';
import { insertWatch } from '../support/watches.ts';

let db: TestDatabase;
let receiver: HttpsReceiver;
beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startHttpsReceiver();
});
afterAll(async () => {
  for (const post of receiver?.received ?? []) validateWebhookPayload('watchNews', post.body);
  await receiver?.close();
  await db?.drop();
});

const webhook = () => ({ ca: receiver.ca, allowPrivateAddresses: true });

describe('a watch test event (docs/product-rules.md R19.29)', () => {
  it('posts a signed sample watch.news marked as a test, free, and says how the receiver answered', async () => {
    const { id: accountId } = await createAccount(db.sql);
    await setAlertWebhook(db.sql, accountId, receiver.url, 'whsec_watch_test');
    const watch = await insertWatch(db.sql, { accountId, kind: 'domain', target: 'acme-outdoor.com' });
    const before = receiver.received.length;
    const outcome = await sendWatchTestEvent(
      db.sql,
      { accountId, watchId: watch.id, sandbox: false },
      { webhook: webhook() },
    );
    expect(outcome).toMatchObject({ sent: { status: 200, error: null } });
    const [post] = receiver.received.slice(before);
    const body = validateWebhookPayload('watchNews', post.body);
    expect(body).toMatchObject({
      type: 'watch.news',
      test: true,
      credits_charged: 0,
      watch: { id: watch.id, kind: 'domain', target: 'acme-outdoor.com' },
      events: [{ change: 'new_advertiser', landing_domain: 'acme-outdoor.com', watch_id: watch.id }],
    });
    expect('sent' in outcome && outcome.sent.eventId).toBe(body.id);
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(String(post.headers['alk-signature'])) ?? [];
    expect(createHmac('sha256', 'whsec_watch_test').update(`${t}.${post.body}`).digest('hex')).toBe(v1);
    expect(await db.sql`SELECT * FROM ledger WHERE account_id = ${accountId} AND kind = 'charge'`).toEqual([]);

    receiver.answers.push(500);
    expect(
      await sendWatchTestEvent(db.sql, { accountId, watchId: watch.id, sandbox: false }, { webhook: webhook() }),
    ).toMatchObject({ sent: { status: 500, error: 'the endpoint answered 500' } });
  });

  it("refuses another account's watch, a deleted one, the other dataset's, and no webhook", async () => {
    const { id: accountId } = await createAccount(db.sql);
    const { id: otherId } = await createAccount(db.sql);
    await setAlertWebhook(db.sql, accountId, receiver.url, 'whsec_watch_test');
    const watch = await insertWatch(db.sql, { accountId, kind: 'advertiser', target: 'Acme Outdoor', sandbox: true });
    const send = (caller: { accountId: number; watchId: string; sandbox: boolean }) =>
      sendWatchTestEvent(db.sql, caller, { webhook: webhook() });
    expect(await send({ accountId: otherId, watchId: watch.id, sandbox: true })).toEqual({
      refused: 'watch not found',
    });
    expect(await send({ accountId, watchId: watch.id, sandbox: false })).toEqual({ refused: 'watch not found' });
    const mine = await send({ accountId, watchId: watch.id, sandbox: true });
    expect(mine).toMatchObject({ sent: { status: 200 } });
    await db.sql`UPDATE watches SET deleted_at = now() WHERE id = ${watch.id}`;
    expect(await send({ accountId, watchId: watch.id, sandbox: true })).toEqual({ refused: 'watch not found' });
    const other = await insertWatch(db.sql, { accountId: otherId, kind: 'domain', target: 'acme-outdoor.com' });
    expect(await send({ accountId: otherId, watchId: other.id, sandbox: false })).toEqual({ refused: 'no webhook' });
  });

  it('shares the hourly limit of the alert test events: the account limit refuses the next one', async () => {
    const { id: accountId } = await createAccount(db.sql);
    await setAlertWebhook(db.sql, accountId, receiver.url, 'whsec_watch_test');
    const watch = await insertWatch(db.sql, { accountId, kind: 'domain', target: 'limits.com' });
    const limits = { perAccount: 2, perHost: 1000 };
    const send = () =>
      sendWatchTestEvent(db.sql, { accountId, watchId: watch.id, sandbox: false }, { webhook: webhook(), limits });
    expect(await send()).toHaveProperty('sent');
    expect(await send()).toHaveProperty('sent');
    expect(await send()).toEqual({ refused: 'account limit' });
  });
});
