import { contractOperations } from '../../src/contract/operations.ts';
import type { Sql } from '../../src/data/client.ts';
import { DEMO } from '../../src/synthetic/generator.ts';
import { spec, validateResponse } from '../../test/support/contract.ts';
import type { DatabaseProxy } from './db-proxy.ts';

/**
 * The two documented codes a healthy service never gives, produced on the same live service by
 * real faults: 500 when a query fails (a table the query reads is renamed away, so PostgreSQL
 * itself fails it), 503 when the database is unreachable (every connection is cut and refused;
 * /readyz answers 503 then too).
 * Every response is validated against openapi.yaml, and the refunds are checked in the ledger.
 */
export interface FaultRecord {
  operation: string;
  status: number;
  error: string;
  mechanism: string;
  detail: string;
  /** The kind of key a 401 or 402 answered (as in FuzzKeys: `poor` is the key without credits). */
  key?: string;
}

export const QUERY: Record<string, string> = {
  getAdvertiserSummary: `name=${encodeURIComponent(DEMO.brandName)}`,
  getAdvertiserHistory: `name=${encodeURIComponent(DEMO.brandName)}`,
  getAdvertiserLandingDomains: `name=${encodeURIComponent(DEMO.intermediaryName)}`,
  getDomainSummary: `domain=${DEMO.brandDomain}`,
  getBrandBidReport: `domain=${DEMO.brandDomain}`,
  searchAdvertisers: `q=${encodeURIComponent(DEMO.brandName.toLowerCase())}`,
  getAccount: '',
  getAccountUsage: '',
  getAccountLedger: '',
  createWatch: '',
  listWatches: '',
  getWatch: '',
  deleteWatch: '',
  listWatchEvents: '',
};

/** A well-formed watch id for the operations that name a watch in their path (whether it exists or not). */
export const SOME_WATCH_ID = '00000000-0000-4000-8000-000000000000';

/** The well-formed body of each operation that takes one. */
export const BODY: Record<string, { contentType: string; body: string }> = {
  createWatch: {
    contentType: 'application/json',
    body: JSON.stringify({ kind: 'domain', target: DEMO.brandDomain }),
  },
};

/**
 * Sends a well-formed request of an operation, by its method, to its path (a watch id filled in),
 * with its query and its body (each replaceable), and validates the answer against openapi.yaml.
 * `label` is the operation as the coverage report names it (`METHOD /path/{template}`).
 */
export async function sendOperation(
  baseUrl: string,
  key: string | null,
  operationId: string,
  {
    query = QUERY[operationId],
    headers = {},
    body = BODY[operationId]?.body,
    path,
    method,
  }: { query?: string; headers?: Record<string, string>; body?: string; path?: string; method?: string } = {},
) {
  const operation = contractOperations.find((op) => op.operationId === operationId)!;
  const concrete = path ?? operation.path.replace('{id}', SOME_WATCH_ID);
  const target = `${concrete}${query ? `?${query}` : ''}`;
  const verb = method ?? operation.method;
  const all: Record<string, string> = {};
  // The key goes in Authorization, unless the caller sends it in x-api-key.
  if (key !== null && !('x-api-key' in headers)) all.authorization = `Bearer ${key}`;
  if (body !== undefined && BODY[operationId]) all['content-type'] = BODY[operationId].contentType;
  Object.assign(all, headers);
  const response = await fetch(`${baseUrl}${target}`, {
    method: verb,
    headers: all,
    ...(body !== undefined && { body }),
  });
  return {
    operation,
    label: `${operation.method} ${operation.path}`,
    response: await validateResponse(verb, target, response),
  };
}

/** Tables the lookups read and the debit does not, so the charge happens and the query fails after it. */
const LOOKUP_TABLES = ['identifiers', 'landing_domain_stats', 'crawls'];

export async function produceServerErrors(
  sql: Sql,
  proxy: DatabaseProxy,
  baseUrl: string,
  { key, accountId }: { key: string; accountId: number },
  log: (line: string) => void,
): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  const call = async (operationId: string) => {
    const { operation, response } = await sendOperation(baseUrl, key, operationId);
    return { operation, validated: response };
  };

  log('Fault injection: lookup tables renamed away (500, charged and refunded)');
  await withRenamed(sql, LOOKUP_TABLES, async () => {
    for (const operation of contractOperations.filter((op) => op.creditCost > 0)) {
      const balance = await balanceOf(sql, accountId);
      const { validated } = await call(operation.operationId);
      expect(validated.status === 500 && validated.body.error === 'internal_error', operation.operationId, validated);
      expect(validated.body.credits_refunded === operation.creditCost, operation.operationId, validated);
      const headers = validated.headers;
      expect(
        headers.get('x-credits-charged') === '0' && headers.get('x-credits-remaining') === String(balance),
        operation.operationId,
        validated,
      );
      expect((await balanceOf(sql, accountId)) === balance, `${operation.operationId}: the balance changed`, validated);
      await expectRefunded(sql, validated.headers.get('x-request-id')!, operation.creditCost);
      records.push({
        operation: `${operation.method} ${operation.path}`,
        status: 500,
        error: 'internal_error',
        mechanism: 'fault injection: lookup tables renamed',
        detail: `charged ${operation.creditCost}, refunded ${operation.creditCost}`,
      });
    }
  });

  log('Fault injection: api_keys renamed away (500 before any charge)');
  // Every free operation that reads the key: the account, its usage and its ledger, the watches.
  const freeWithKey = contractOperations.filter((op) => op.creditCost === 0 && op.path.startsWith('/api/'));
  await withRenamed(sql, ['api_keys'], async () => {
    for (const { operationId } of freeWithKey) {
      const { operation, validated } = await call(operationId);
      expect(
        validated.status === 500 && validated.body.error === 'internal_error' && validated.body.credits_refunded === 0,
        operationId,
        validated,
      );
      records.push({
        operation: `${operation.method} ${operation.path}`,
        status: 500,
        error: 'internal_error',
        mechanism: 'fault injection: api_keys renamed',
        detail: 'nothing charged',
      });
    }
  });

  log('Fault injection: database connections cut and refused (503)');
  // Every operation that documents 503: the billed ones, the account and the readiness probe.
  const documents503 = contractOperations.filter(
    (op) => '503' in spec.paths[op.path][op.method.toLowerCase()].responses,
  );
  proxy.cut();
  try {
    for (const operation of documents503) {
      const { validated } = await call(operation.operationId);
      expect(
        validated.status === 503 && validated.body.error === 'unavailable' && validated.body.credits_refunded === 0,
        operation.operationId,
        validated,
      );
      expect(validated.headers.get('retry-after') === '5', `${operation.operationId}: Retry-After`, validated);
      records.push({
        operation: `${operation.method} ${operation.path}`,
        status: 503,
        error: 'unavailable',
        mechanism: 'fault injection: database connections cut',
        detail: `Retry-After ${validated.headers.get('retry-after')}`,
      });
    }
  } finally {
    proxy.restore();
  }
  // The service recovers by itself once the database is back.
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { validated } = await call('getAccount').catch(() => ({ validated: { status: 0 } as { status: number } }));
    if (validated.status === 200) break;
    if (Date.now() > deadline)
      throw new Error(`the service did not recover after the database came back (last status ${validated.status})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return records;
}

async function withRenamed(sql: Sql, tables: string[], run: () => Promise<void>): Promise<void> {
  const renamed: string[] = [];
  try {
    for (const table of tables) {
      await sql.unsafe(`ALTER TABLE ${table} RENAME TO ${table}_fault`);
      renamed.push(table);
    }
    await run();
  } finally {
    for (const table of renamed) await sql.unsafe(`ALTER TABLE ${table}_fault RENAME TO ${table}`);
  }
}

async function balanceOf(sql: Sql, accountId: number): Promise<number> {
  const [row] = await sql<{ balance: number }[]>`SELECT balance FROM accounts WHERE id = ${accountId}`;
  return row.balance;
}

async function expectRefunded(sql: Sql, requestId: string, price: number): Promise<void> {
  const rows = await sql<
    { kind: string; amount: number }[]
  >`SELECT kind, amount FROM ledger WHERE request_id = ${requestId} ORDER BY id`;
  const shape = rows.map((row) => `${row.kind} ${row.amount}`).join(', ');
  if (shape !== `charge ${-price}, refund ${price}`)
    throw new Error(`request ${requestId}: the ledger has [${shape}], expected a charge of ${price} and its refund`);
}

function expect(
  condition: boolean,
  what: string,
  response: { status: number; body?: unknown; headers?: Headers },
): void {
  if (!condition) {
    const headers = response.headers ? Object.fromEntries(response.headers.entries()) : {};
    throw new Error(
      `fault injection, ${what}: unexpected answer ${response.status} ` +
        `${JSON.stringify(response.body)} ${JSON.stringify(headers)}`,
    );
  }
}
