// @module-tag runtime
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createApiKey } from '../../src/data/accounts.ts';
import { setAlertWebhook } from '../../src/data/alerts.ts';
import { ingestObservations } from '../../src/ingest/index.ts';
import { observation, TODAY } from '../ingest/helpers.ts';
import { validateWebhookPayload } from '../support/contract.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver.ts';
import { startTestSmtp, type TestSmtp } from '../support/mail.ts';
import { type Started, startService } from '../support/service.ts';
import { insertWatch } from '../support/watches.ts';

const WATCHES = 20;
let db: TestDatabase;
let receiver: HttpsReceiver;
let smtp: TestSmtp;
let dir: string;
const running: Started[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  receiver = await startHttpsReceiver();
  smtp = await startTestSmtp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'watch-restart-'));
  fs.writeFileSync(path.join(dir, 'receiver.pem'), receiver.ca);
});
afterAll(async () => {
  await Promise.all(running.map((service) => service.stop().catch(() => {})));
  await receiver?.close();
  await smtp?.close();
  await db?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function service(name: string): Promise<Started> {
  const started = await startService({
    DATABASE_URL: db.url,
    DEMO_DATA: 'off',
    PENDING_REFUNDS_DIR: path.join(dir, name),
    ALERT_WEBHOOK_PRIVATE_ADDRESSES: 'on',
    NODE_EXTRA_CA_CERTS: path.join(dir, 'receiver.pem'),
    SMTP_URL: smtp.url,
  });
  running.push(started);
  return started;
}

async function until(check: () => Promise<boolean> | boolean, what: string, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

const deliveries = async () =>
  (
    await db.sql<{ delivered: number; charges: number }[]>`
      SELECT (SELECT count(*)::integer FROM watch_deliveries WHERE delivered_at IS NOT NULL) AS delivered,
             (SELECT count(*)::integer FROM ledger WHERE kind = 'charge' AND endpoint = 'watchNews') AS charges`
  )[0];

describe('brand watch: the outbox survives a kill -9 and is shared by two processes (R19.27)', () => {
  it('a service killed with posts in flight loses nothing; two processes then deliver each once', async () => {
    const account = await createAccount(db.sql);
    const key = await createApiKey(db.sql, account.id);
    await db.sql`
      INSERT INTO account_logins (account_id, email, email_normalized, password_hash, email_verified_at)
      VALUES (${account.id}, 'restart@example.com', 'restart@example.com', '$argon2id$test-only', now())`;
    await setAlertWebhook(db.sql, account.id, receiver.url, 'whsec_restart');
    for (let n = 0; n < WATCHES; n += 1)
      await insertWatch(db.sql, { accountId: account.id, keyId: key.id, kind: 'domain', target: `shop${n}.com` });
    await ingestObservations(
      db.sql,
      Array.from({ length: WATCHES }, (_, n) =>
        observation({ creative_id: `CR${n}`, advertiser_id: `AR${n + 1}`, landing_url: `https://shop${n}.com/` }),
      ),
      { today: TODAY },
    );
    // The receiver takes the first posts and never answers them: they are in flight at the kill.
    receiver.answers.push(...Array.from({ length: WATCHES }, () => 0));
    const first = await service('first');
    await until(() => receiver.received.length > 0, 'a post in flight');
    process.kill(first.pid, 'SIGKILL');
    await first.exited;
    expect((await deliveries()).delivered).toBe(0);
    // Billed once, before the posts: the kill leaves every charge and no delivery.
    expect((await deliveries()).charges).toBe(WATCHES);
    const inFlight = receiver.received.length;

    // The killed process's lease runs out (60 s in the service; moved here, not waited for).
    receiver.answers.length = 0;
    await db.sql`UPDATE watch_deliveries SET locked_until = now() - interval '1 second' WHERE locked_until IS NOT NULL`;
    await Promise.all([service('second'), service('third')]);
    await until(async () => (await deliveries()).delivered === WATCHES, 'every delivery');
    const after = receiver.received.slice(inFlight).map((post) => validateWebhookPayload('watchNews', post.body).id);
    expect(after).toHaveLength(WATCHES);
    expect(new Set(after).size).toBe(WATCHES);
    expect((await deliveries()).charges).toBe(WATCHES);
    const digest = await smtp.next('restart@example.com', 30_000);
    expect(digest.subject).toBe(`Brand watch: ${WATCHES} new changes found`);
    await sleep(1_500);
    expect(smtp.received.filter((mail) => mail.to.includes('restart@example.com'))).toHaveLength(1);
  }, 180_000);
});
