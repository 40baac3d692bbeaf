import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import type { Sql } from '../../src/data/client.ts';

/** One call the load made and what its caller saw. */
export interface Call {
  /** Sent as X-Request-Id, so the ledger can be matched even when no answer came back. */
  requestId: string;
  keyIndex: number;
  path: string;
  /** 0 when no HTTP answer came (connection refused or cut). */
  status: number;
  /** Credits the caller was charged, from X-Credits-Charged (0 when absent). */
  charged: number;
  /** The error code of an error body. */
  error?: string;
  body?: any;
  startedAt: number;
  ms: number;
}

export interface LoadOptions {
  baseUrl: string;
  keys: string[];
  /** Request paths, used in turn. */
  paths: string[];
  /** Calls in flight at once. */
  concurrency: number;
  /** Each call gives up after this long (a hanging call shows as status 0 with a long `ms`). */
  timeoutMs?: number;
}

export interface Load {
  calls: Call[];
  /** Stops issuing calls and waits for those in flight. */
  stop(): Promise<Call[]>;
  /** Resolves when `predicate` holds for the calls so far (checked every 50 ms), or rejects after `timeoutMs`. */
  until(predicate: (calls: Call[]) => boolean, timeoutMs: number, what: string): Promise<void>;
}

/**
 * Steady load from `concurrency` callers over keep-alive connections, each call with its own
 * request id, every answer recorded. Uses node:http directly so that a refused or cut connection
 * is a recorded outcome and nothing is retried behind the test's back.
 */
export function startLoad({ baseUrl, keys, paths, concurrency, timeoutMs = 10_000 }: LoadOptions): Load {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const calls: Call[] = [];
  const prefix = `load-${randomBytes(4).toString('hex')}`;
  let counter = 0;
  let running = true;
  const worker = async () => {
    while (running) {
      const n = counter++;
      const call = await callOnce(
        agent,
        baseUrl,
        `${prefix}-${n}`,
        n % keys.length,
        keys[n % keys.length],
        paths[n % paths.length],
        timeoutMs,
      );
      calls.push(call);
      // A refused connection fails at once; do not spin while the service is away.
      if (call.status === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const workers = Array.from({ length: concurrency }, worker);
  return {
    calls,
    async stop() {
      running = false;
      await Promise.all(workers);
      agent.destroy();
      return calls;
    },
    async until(predicate, limitMs, what) {
      const deadline = performance.now() + limitMs;
      while (!predicate(calls)) {
        if (performance.now() > deadline)
          throw new Error(`timed out after ${limitMs} ms waiting until ${what}; ${summarize(calls)}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
}

function callOnce(
  agent: Agent,
  baseUrl: string,
  requestId: string,
  keyIndex: number,
  key: string,
  path: string,
  timeoutMs: number,
): Promise<Call> {
  const startedAt = performance.now();
  const done = (fields: Partial<Call>): Call => ({
    requestId,
    keyIndex,
    path,
    status: 0,
    charged: 0,
    startedAt,
    ms: performance.now() - startedAt,
    ...fields,
  });
  return new Promise((resolve) => {
    const req = request(
      `${baseUrl}${path}`,
      { agent, headers: { authorization: `Bearer ${key}`, 'x-request-id': requestId }, timeout: timeoutMs },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('error', (error) => resolve(done({ error: error.message })));
        res.on('end', () => {
          let body: any;
          try {
            body = JSON.parse(text);
          } catch {
            body = text;
          }
          resolve(
            done({
              status: res.statusCode!,
              charged: Number(res.headers['x-credits-charged'] ?? 0),
              error: body?.error,
              body,
            }),
          );
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) => resolve(done({ error: error.message })));
    req.end();
  });
}

/** Counts of calls by status, for messages. */
export function summarize(calls: Call[]): string {
  const byStatus = new Map<number, number>();
  for (const call of calls) byStatus.set(call.status, (byStatus.get(call.status) ?? 0) + 1);
  return `${calls.length} calls: ${[...byStatus].map(([status, count]) => `${status}×${count}`).join(', ')}`;
}

/** The ledger rows of the given request ids, grouped by request id. */
export async function ledgerByRequest(
  sql: Sql,
  requestIds: string[],
): Promise<Map<string, { kind: string; amount: number; id: number; refund_of: number | null }[]>> {
  const rows = await sql<{ request_id: string; kind: string; amount: number; id: number; refund_of: number | null }[]>`
    SELECT request_id, kind, amount, id, refund_of FROM ledger WHERE request_id = ANY(${requestIds}) ORDER BY id`;
  const grouped = new Map<string, { kind: string; amount: number; id: number; refund_of: number | null }[]>();
  for (const { request_id, ...row } of rows) grouped.set(request_id, [...(grouped.get(request_id) ?? []), row]);
  return grouped;
}

export interface FundedAccount {
  accountId: number;
  key: string;
  /** The balance before the load. */
  initial: number;
}

/**
 * What a paid API owes its callers after any run, checked against the ledger:
 * - every account's balance equals the sum of its ledger;
 * - every call answered as charged (200, data 404) has exactly one charge of that price, unrefunded
 *   (a free call none);
 * - every call answered with an error is not charged in the end: no charge, or a charge and its refund;
 * - no ledger row of these accounts since the load began belongs to a call the load did not make;
 * - each balance is its starting balance less what its callers were told they paid, and less the
 *   charges of calls that got no answer at all (cut off by a crash: those are counted apart).
 * After a crash and the recovery at the next start (`crashRecovered`), a call that got no answer
 * must not be charged in the end, and a charged answer written in the last moments before the
 * crash may have been refunded (its delivery mark was not written yet: the service pays for that
 * window, never the caller); those are counted apart.
 * Returns the violations, empty when all hold.
 */
export async function auditBilling(
  sql: Sql,
  calls: Call[],
  accounts: FundedAccount[],
  sinceLedgerId: number,
  { crashRecovered = false }: { crashRecovered?: boolean } = {},
): Promise<{ violations: string[]; unansweredCharged: number; answeredRefunded: number }> {
  const violations: string[] = [];
  const ledger = await ledgerByRequest(
    sql,
    calls.map((call) => call.requestId),
  );
  const net = (requestId: string) => (ledger.get(requestId) ?? []).reduce((sum, row) => sum + row.amount, 0);
  const expectedSpend = new Map<number, number>(accounts.map((_, index) => [index, 0]));
  let unansweredCharged = 0;
  let answeredRefunded = 0;
  for (const call of calls) {
    const rows = ledger.get(call.requestId) ?? [];
    const charges = rows.filter((row) => row.kind === 'charge');
    const refunds = rows.filter((row) => row.kind === 'refund');
    const charged = call.status === 200 || (call.status === 404 && call.charged > 0);
    const refundedAfterCrash =
      crashRecovered &&
      charged &&
      call.charged > 0 &&
      charges.length === 1 &&
      refunds.length === 1 &&
      charges[0].amount === -call.charged;
    if (refundedAfterCrash) {
      answeredRefunded++;
    } else if (charged) {
      const exact =
        call.charged === 0
          ? rows.length === 0
          : charges.length === 1 && refunds.length === 0 && charges[0].amount === -call.charged;
      if (!exact) {
        violations.push(
          `${call.requestId} answered ${call.status} charging ${call.charged}; ledger: ${JSON.stringify(rows)}`,
        );
      }
    } else if (call.status !== 0) {
      if (net(call.requestId) !== 0 || charges.length > 1)
        violations.push(`${call.requestId} answered ${call.status} but the ledger keeps ${JSON.stringify(rows)}`);
      if (
        call.status >= 500 &&
        call.body?.credits_refunded !== -charges.reduce((sum, row) => sum + row.amount, 0) &&
        call.body?.credits_refunded !== 0
      ) {
        violations.push(
          `${call.requestId} says credits_refunded ${call.body?.credits_refunded}; ledger: ${JSON.stringify(rows)}`,
        );
      }
    } else {
      if (charges.length > 1 || refunds.length > charges.length)
        violations.push(`${call.requestId} (no answer) has ${JSON.stringify(rows)}`);
      if (net(call.requestId) !== 0) unansweredCharged++;
      if (crashRecovered && net(call.requestId) !== 0)
        violations.push(`${call.requestId} (no answer) is still charged after the recovery: ${JSON.stringify(rows)}`);
    }
    const spent =
      call.status === 0 || refundedAfterCrash
        ? -net(call.requestId)
        : call.status === 200 || call.status === 404
          ? call.charged
          : 0;
    expectedSpend.set(call.keyIndex, expectedSpend.get(call.keyIndex)! + spent);
  }
  const known = new Set(calls.map((call) => call.requestId));
  for (const [index, account] of accounts.entries()) {
    const [{ balance }] = await sql<
      { balance: number }[]
    >`SELECT balance FROM accounts WHERE id = ${account.accountId}`;
    const [{ sum }] = await sql<
      { sum: number }[]
    >`SELECT coalesce(sum(amount), 0)::bigint AS sum FROM ledger WHERE account_id = ${account.accountId}`;
    if (balance !== sum)
      violations.push(`account ${account.accountId}: balance ${balance} but the ledger sums to ${sum}`);
    if (balance !== account.initial - expectedSpend.get(index)!) {
      violations.push(
        `account ${account.accountId}: balance ${balance}, expected ` +
          `${account.initial} - ${expectedSpend.get(index)} from what callers saw`,
      );
    }
    const strangers = await sql<{ id: number; request_id: string | null }[]>`
      SELECT id, request_id FROM ledger WHERE account_id = ${account.accountId} AND id > ${sinceLedgerId}`;
    for (const row of strangers)
      if (!known.has(row.request_id ?? ''))
        violations.push(`account ${account.accountId}: ledger row ${row.id} of unknown request ${row.request_id}`);
  }
  return { violations, unansweredCharged, answeredRefunded };
}
