import type { DatabaseProxy } from '../../scripts/contract/db-proxy.ts';
import type { Sql } from '../../src/data/client.ts';

/**
 * Makes the answer of `call`, a charged lookup of a service process that reaches the database
 * through `proxy`, owe its refund: the lookups wait on a lock (`sql` holds it) until the call's
 * charge has committed and its lookup waits, then the proxy cuts the process off the database,
 * so the refund cannot be made. Returns the answer (a 503 that says the refund is owed).
 */
export async function answerOwingItsRefund(
  sql: Sql,
  proxy: DatabaseProxy,
  call: () => Promise<Response>,
): Promise<Response> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const lockTaken = new Promise<void>((resolve) => (locked = resolve));
  const lock = sql.begin(async (tx) => {
    await tx`LOCK TABLE identifiers IN ACCESS EXCLUSIVE MODE`;
    locked();
    await held;
  });
  await lockTaken;
  const answer = call();
  for (let waited = 0; ; waited += 50) {
    const waiting = await sql`SELECT 1 FROM pg_stat_activity WHERE application_name = 'advertiser-lookup-api'
        AND wait_event_type = 'Lock'`;
    if (waiting.length > 0) break;
    if (waited > 10_000) throw new Error('the lookup never waited for the lock');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  proxy.cut();
  const response = await answer;
  release();
  await lock;
  return response;
}
