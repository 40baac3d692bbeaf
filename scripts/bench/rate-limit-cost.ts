/**
 * What counting the per-key rate limit costs a call, by where the count is kept (docs/scaling.md):
 * `npm run bench:rate-limit-cost [-- --calls 20000 --concurrency 8]`.
 *
 * Each variant makes the same debit (by default the free one of the account call, which checks the
 * key and reads the balance and writes nothing; `--price 3` a billed one, which writes its ledger
 * row) from `concurrency` loops sharing one pool, and counts the rate limit:
 * - not at all (the floor);
 * - in the debit statement itself, as the service does (migrations/00015_shared-limits);
 * - in a statement of its own on PostgreSQL before the debit, as a shared store such as
 *   rate-limiter-flexible's PostgreSQL store does;
 * - in Redis (INCR and PEXPIRE, one round trip) before the debit, as its Redis store does.
 * It runs against a scratch database on DATABASE_URL's server (default: the PostgreSQL on
 * 127.0.0.1:5432) and Redis on REDIS_URL (default 127.0.0.1:6379), and reports calls per second
 * and the added latency against the floor.
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Command } from 'commander';
import { hashApiKey } from '../../src/contract/api-key.ts';
import { addCredits, createAccount, createApiKey } from '../../src/data/accounts.ts';
import { debitCalls } from '../../src/data/billing.ts';
import { connect } from '../../src/data/client.ts';
import { migrate } from '../../src/data/migrate.ts';
import { takeRateLimit } from '../../src/data/rate-limit.ts';

/** One Redis connection per loop, speaking RESP: INCR and PEXPIRE NX sent together, one round trip. */
class RedisConnections {
  private constructor(private readonly sockets: net.Socket[]) {}

  static async open(url: URL, count: number): Promise<RedisConnections> {
    const sockets = await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<net.Socket>((resolve, reject) => {
            const socket = net.connect(Number(url.port || 6379), url.hostname, () => resolve(socket));
            socket.setNoDelay(true);
            socket.once('error', reject);
          }),
      ),
    );
    return new RedisConnections(sockets);
  }

  count(loop: number, key: string, windowMs: number): Promise<void> {
    const socket = this.sockets[loop];
    return new Promise((resolve) => {
      let received = '';
      const onData = (chunk: Buffer) => {
        received += chunk.toString();
        // Two replies, each one line (":<integer>\r\n").
        if (received.split('\r\n').length > 2) {
          socket.off('data', onData);
          resolve();
        }
      };
      socket.on('data', onData);
      socket.write(`INCR ${key}\r\nPEXPIRE ${key} ${windowMs} NX\r\n`);
    });
  }

  close(): void {
    for (const socket of this.sockets) socket.end();
  }
}

const program = new Command()
  .option('--calls <n>', 'calls per variant and round', Number, 20_000)
  .option('--concurrency <n>', 'loops calling at once', Number, 8)
  .option('--rounds <n>', 'interleaved rounds; the better one counts', Number, 3)
  .option('--price <n>', 'credits each debit charges (0: the free account call, which writes nothing else)', Number, 0);
program.parse();
const { calls, concurrency, rounds, price } = program.opts<{
  calls: number;
  concurrency: number;
  rounds: number;
  price: number;
}>();

const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const scratch = new URL(serverUrl);
scratch.pathname = '/alk_rate_limit_cost';
const admin = connect(serverUrl, 1);
await admin.unsafe('DROP DATABASE IF EXISTS alk_rate_limit_cost');
await admin.unsafe('CREATE DATABASE alk_rate_limit_cost');
await admin.end();
await migrate(scratch.href);
const sql = connect(scratch.href, 10, { fetchArrayTypes: false });
const keys = await Promise.all(
  Array.from({ length: 100 }, async () => {
    const account = await createAccount(sql);
    const { id, key } = await createApiKey(sql, account.id);
    await addCredits(sql, account.id, 1_000_000_000, `rate-limit-cost-${account.id}`);
    return { id, hash: hashApiKey(key) };
  }),
);
const redis = await RedisConnections.open(redisUrl, concurrency);
const LIMIT = { quota: 1_000_000_000, windowSeconds: 60 };

const debit = (key: (typeof keys)[number], rateLimit?: typeof LIMIT) =>
  debitCalls(sql, [
    {
      keyHash: key.hash,
      price,
      endpoint: price === 0 ? 'getAccount' : 'getAdvertiserSummary',
      requestId: 'rate-limit-cost',
      callId: randomUUID(),
      runId: '00000000-0000-4000-8000-0000000000c0',
      ...(rateLimit && { rateLimit }),
    },
  ]);

const variants: Record<string, (key: (typeof keys)[number], loop: number) => Promise<unknown>> = {
  'no rate limit (floor)': (key) => debit(key),
  'counted in the debit statement (the service)': (key) => debit(key, LIMIT),
  'a PostgreSQL statement of its own, then the debit': async (key) => {
    await takeRateLimit(sql, key.id, LIMIT.windowSeconds);
    return debit(key);
  },
  'Redis INCR + PEXPIRE, then the debit': async (key, loop) => {
    await redis.count(loop, `rl:${key.id}`, LIMIT.windowSeconds * 1000);
    return debit(key);
  },
};

const best = new Map<string, { perSecond: number; meanMs: number }>();
for (let round = 0; round < rounds; round++) {
  for (const [name, call] of Object.entries(variants)) {
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async (_, loop) => {
        for (let i = next++; i < calls; i = next++) await call(keys[i % keys.length], loop);
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const result = { perSecond: calls / seconds, meanMs: (seconds * 1000 * concurrency) / calls };
    if ((best.get(name)?.perSecond ?? 0) < result.perSecond) best.set(name, result);
  }
}
const floor = best.get('no rate limit (floor)')!;
console.log(
  `\n${calls} debits of ${price} credits × ${rounds} rounds, ${concurrency} at once; the better round of each\n`,
);
console.log('| where the count is kept | calls/s | × floor | mean ms | added ms |');
console.log('| :-- | --: | --: | --: | --: |');
for (const [name, { perSecond, meanMs }] of best) {
  console.log(
    `| ${name} | ${perSecond.toFixed(0)} | ${(perSecond / floor.perSecond).toFixed(2)} | ${meanMs.toFixed(3)} | ` +
      `${(meanMs - floor.meanMs).toFixed(3)} |`,
  );
}
await sql.end();
redis.close();
const dropper = connect(serverUrl, 1);
await dropper.unsafe('DROP DATABASE IF EXISTS alk_rate_limit_cost WITH (FORCE)');
await dropper.end();
