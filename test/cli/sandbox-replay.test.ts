// @module-tag runtime
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../src/cli/admin.ts';
import { createAccount, createApiKey } from '../../src/data/accounts.ts';
import { setAlertWebhook } from '../../src/data/alerts.ts';
import { smtpMailer } from '../../src/mail/smtp.ts';
import { WatchNewsSender } from '../../src/watches/news-sender.ts';
import { validateWebhookPayload } from '../support/contract.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver.ts';
import { startTestSmtp, type TestSmtp } from '../support/mail.ts';
import { insertWatch } from '../support/watches.ts';

let db: TestDatabase;
let receiver: HttpsReceiver;
let smtp: TestSmtp;
beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startHttpsReceiver();
  smtp = await startTestSmtp();
});
afterAll(async () => {
  await receiver?.close();
  await smtp?.close();
  await db?.drop();
});

async function admin(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runAdmin(argv, db.sql, { out: (t) => (out += t), err: (t) => (err += t) }, db.url);
  return { code, out, err };
}

describe('npm run admin -- sandbox replay-load (docs/product-rules.md R19.28)', () => {
  it('replays a generated load into the sandbox through the ingest: news for every sandbox watch, free', async () => {
    const account = await createAccount(db.sql);
    const key = await createApiKey(db.sql, account.id, { test: true });
    await setAlertWebhook(db.sql, account.id, receiver.url, 'whsec_replay');
    const domain = await insertWatch(db.sql, {
      accountId: account.id,
      keyId: key.id,
      kind: 'domain',
      target: 'acme-outdoor.com',
      sandbox: true,
    });
    const advertiser = await insertWatch(db.sql, {
      accountId: account.id,
      keyId: key.id,
      kind: 'advertiser',
      target: 'Acme Outdoor',
      sandbox: true,
    });
    const live = await insertWatch(db.sql, { accountId: account.id, kind: 'domain', target: 'acme-outdoor.com' });
    const balance = async () => (await db.sql`SELECT balance FROM accounts WHERE id = ${account.id}`)[0].balance;
    const before = await balance();

    const replay = await admin('sandbox', 'replay-load', '--observations', '200', '--json');
    expect(replay).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(replay.out)).toMatchObject({ rejected: 0, sandbox_watches: 2 });
    expect((await db.sql`SELECT count(*)::integer AS n FROM sandbox.observations`)[0].n).toBeGreaterThan(100);
    expect((await db.sql`SELECT count(*)::integer AS n FROM public.observations`)[0].n).toBe(0);

    const mailer = smtpMailer(smtp.url, 'Advertiser Lookup API <no-reply@localhost>');
    const sender = new WatchNewsSender({
      sql: db.sql,
      mailer,
      publicUrl: () => new URL('https://api.example.com'),
      webhook: { ca: receiver.ca, allowPrivateAddresses: true },
    });
    await sender.sendDue();
    await sender.stop();
    mailer.close();
    const posts = receiver.received.map((post) => validateWebhookPayload('watchNews', post.body));
    expect(posts.map((post) => post.watch.id).sort()).toEqual([domain.id, advertiser.id].sort());
    expect(posts.every((post) => post.credits_charged === 0 && post.watch.sandbox)).toBe(true);
    expect(posts.some((post) => post.watch.id === live.id)).toBe(false);
    expect(await balance()).toBe(before);
    expect(await db.sql`SELECT * FROM ledger WHERE account_id = ${account.id} AND kind = 'charge'`).toEqual([]);

    // Again: new identifiers, so news again.
    expect((await admin('sandbox', 'replay-load', '--observations', '0')).code).toBe(0);
    expect((await db.sql`SELECT count(*)::integer AS n FROM watch_deliveries`)[0].n).toBe(4);
  });

  it('refuses a count that is not a whole number up to 100000', async () => {
    const answer = await admin('sandbox', 'replay-load', '--observations', 'lots');
    expect(answer.code).toBe(1);
    expect(answer.err).toContain('--observations must be a whole number');
  });
});
