import { randomUUID } from 'node:crypto';
import { createAccount, createApiKey } from '../../src/db/accounts.ts';
import type { Sql } from '../../src/db/client.ts';
import { contractOperations } from '../../src/spec.ts';
import { generateApiKey } from '../../src/keys/api-key.ts';
import { spec, validateResponse, type ValidatedResponse } from '../../test/support/contract.ts';
import { QUERY } from './faults.ts';
import type { FaultRecord } from './faults.ts';

/**
 * The documented answers that depend on what came before, produced deterministically on the live
 * services and validated against openapi.yaml:
 *  - Idempotency-Key on every billed operation of the main service: the first call is charged
 *    once, its retry is replayed (same status and body, `Idempotent-Replayed: true`, nothing
 *    charged), the key with another query answers 422 idempotency_key_reused and a malformed key
 *    400 invalid_idempotency_key, both free.
 *  - 429 rate_limited on every operation of a second service process on the same database that
 *    allows `RATE_LIMIT_QUOTA` requests per key and minute: free, with Retry-After and the
 *    RateLimit fields; an unknown key still gets 401 there.
 * "Free" is checked in the ledger: no row carries the request id, and the balance is unchanged.
 */
export const RATE_LIMIT_QUOTA = 3;

/** A query of each operation other than faults.ts's, so a reused key meets another query. */
const OTHER_QUERY: Record<string, string> = {
  getAdvertiserSummary: 'name=Someone%20Else',
  getAdvertiserHistory: 'name=Someone%20Else',
  getAdvertiserLandingDomains: 'name=Someone%20Else',
  getDomainSummary: 'domain=someone-else.org',
  getBrandBidReport: 'domain=someone-else.org',
};

interface Caller {
  key: string;
  accountId: number;
}

export async function produceRetriesAndLimits(
  sql: Sql,
  mainUrl: string,
  limitedUrl: string,
  funded: Caller,
  log: (line: string) => void,
): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  const call = async (baseUrl: string, key: string, operationId: string, query: string | undefined, headers: Record<string, string> = {}) => {
    const operation = contractOperations.find((op) => op.operationId === operationId)!;
    const q = query ?? QUERY[operationId];
    const target = `${operation.path}${q ? `?${q}` : ''}`;
    const response = await fetch(`${baseUrl}${target}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
    return { label: `GET ${operation.path}`, response: await validateResponse('GET', target, response) };
  };

  log('Idempotency-Key: a retry is replayed and not charged; another query is 422, a malformed key 400, both free');
  for (const operation of contractOperations.filter((op) => op.creditCost > 0)) {
    const id = operation.operationId;
    const idempotencyKey = randomUUID();
    const before = await balanceOf(sql, funded.accountId);
    const first = await call(mainUrl, funded.key, id, undefined, { 'Idempotency-Key': idempotencyKey });
    expect(first.response.status === 200 && first.response.headers.get('idempotent-replayed') === null, `${id}: first call`, first.response);
    expect((await balanceOf(sql, funded.accountId)) === before - operation.creditCost, `${id}: the first call costs the price`, first.response);

    const retry = await call(mainUrl, funded.key, id, undefined, { 'Idempotency-Key': idempotencyKey });
    expect(retry.response.status === first.response.status && retry.response.text === first.response.text, `${id}: the retry replays the first response`, retry.response);
    expect(retry.response.headers.get('idempotent-replayed') === 'true', `${id}: Idempotent-Replayed`, retry.response);
    await expectFree(sql, funded.accountId, before - operation.creditCost, retry.response, `${id}: replay`);

    const reused = await call(mainUrl, funded.key, id, OTHER_QUERY[id], { 'Idempotency-Key': idempotencyKey });
    expect(reused.response.status === 422 && reused.response.body.error === 'idempotency_key_reused', `${id}: reuse`, reused.response);
    await expectFree(sql, funded.accountId, before - operation.creditCost, reused.response, `${id}: 422`);
    records.push({ operation: reused.label, status: 422, error: 'idempotency_key_reused', mechanism: 'Idempotency-Key sequence', detail: 'free; the retry before it was replayed, free' });

    const malformed = await call(mainUrl, funded.key, id, undefined, { 'Idempotency-Key': 'two words' });
    expect(malformed.response.status === 400 && malformed.response.body.error === 'invalid_idempotency_key', `${id}: malformed key`, malformed.response);
    await expectFree(sql, funded.accountId, before - operation.creditCost, malformed.response, `${id}: 400`);
    records.push({ operation: malformed.label, status: 400, error: 'invalid_idempotency_key', mechanism: 'Idempotency-Key sequence', detail: 'free' });
  }

  log(`Rate limit: a second service process allowing ${RATE_LIMIT_QUOTA} requests per key and minute answers 429, free`);
  const account = await createAccount(sql);
  const { key } = await createApiKey(sql, account.id);
  const balance = await balanceOf(sql, account.id);
  for (let i = 0; i < RATE_LIMIT_QUOTA; i++) {
    const { response } = await call(limitedUrl, key, 'getAccount', undefined);
    expect(response.status === 200, 'within the quota', response);
  }
  // Every operation that documents 429: those a customer's key calls (/healthz, /readyz and
  // /metrics take no key, so no per-key quota applies to them).
  for (const operation of contractOperations.filter((op) => '429' in spec.paths[op.path][op.method.toLowerCase()].responses)) {
    const { label, response } = await call(limitedUrl, key, operation.operationId, undefined, operation.creditCost > 0 ? { 'Idempotency-Key': randomUUID() } : {});
    expect(response.status === 429 && response.body.error === 'rate_limited', `${operation.operationId}: over the quota`, response);
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter >= 1 && retryAfter <= 60, `${operation.operationId}: Retry-After`, response);
    expect(response.headers.get('ratelimit') === `"per-key";r=0;t=${retryAfter}`, `${operation.operationId}: RateLimit`, response);
    expect(response.headers.get('ratelimit-policy') === `"per-key";q=${RATE_LIMIT_QUOTA};w=60`, `${operation.operationId}: RateLimit-Policy`, response);
    await expectFree(sql, account.id, balance, response, `${operation.operationId}: 429`);
    records.push({ operation: label, status: 429, error: 'rate_limited', mechanism: `service with RATE_LIMIT_PER_MINUTE=${RATE_LIMIT_QUOTA}`, detail: `free; Retry-After ${retryAfter}` });
  }
  const unknown = await call(limitedUrl, generateApiKey().key, 'getAccount', undefined);
  expect(unknown.response.status === 401, 'an unknown key on the limited service', unknown.response);
  return records;
}

async function balanceOf(sql: Sql, accountId: number): Promise<number> {
  const [row] = await sql<{ balance: number }[]>`SELECT balance FROM accounts WHERE id = ${accountId}`;
  return row.balance;
}

/** Nothing charged: no ledger row of the request, the balance as expected, and the credit headers say so. */
async function expectFree(sql: Sql, accountId: number, balance: number, response: ValidatedResponse, what: string): Promise<void> {
  const requestId = response.headers.get('x-request-id')!;
  const [{ rows }] = await sql<{ rows: number }[]>`SELECT count(*)::int AS rows FROM ledger WHERE request_id = ${requestId}`;
  expect(rows === 0, `${what}: the ledger has ${rows} rows for a free answer`, response);
  expect((await balanceOf(sql, accountId)) === balance, `${what}: the balance changed`, response);
  expect(response.headers.get('x-credits-charged') === '0' && response.headers.get('x-credits-remaining') === String(balance), `${what}: credit headers`, response);
}

function expect(condition: boolean, what: string, response: { status: number; body?: unknown; headers?: Headers }): void {
  if (!condition) {
    const headers = response.headers ? Object.fromEntries(response.headers.entries()) : {};
    throw new Error(`retries and limits, ${what}: unexpected answer ${response.status} ${JSON.stringify(response.body)} ${JSON.stringify(headers)}`);
  }
}
