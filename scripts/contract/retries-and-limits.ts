import { randomUUID } from 'node:crypto';
import { generateApiKey } from '../../src/contract/api-key.ts';
import { contractOperations } from '../../src/contract/operations.ts';
import { createAccount, createApiKey } from '../../src/data/accounts.ts';
import { setDailyCap } from '../../src/data/api-keys.ts';
import type { Sql } from '../../src/data/client.ts';
import { spec, type ValidatedResponse } from '../../test/support/contract.ts';
import type { FaultRecord } from './faults.ts';
import { QUERY, sendOperation } from './faults.ts';

/**
 * The documented answers that depend on what came before, produced deterministically on the live
 * services and validated against openapi.yaml:
 *  - Idempotency-Key on every billed operation of the main service: the first call is charged
 *    once, its retry is replayed (same status and body, `Idempotent-Replayed: true`, nothing
 *    charged), the key with another query answers 422 idempotency_key_reused and a malformed key
 *    400 invalid_idempotency_key, both free.
 *  - 402 insufficient_credits on every billed operation of the main service, for well-formed
 *    input with the key whose balance is below every price: free, with `required` (the price) and
 *    `balance`, through either header. The fuzzing sends that key with invalid input only (400),
 *    since 402 is no acceptance of well-formed input (test/contract/schemathesis/schemathesis.toml).
 *  - 403 daily_cap_reached on every billed operation of the main service, for well-formed input
 *    with a funded key whose daily cap (1 credit) is spent by one call of the cheapest operation:
 *    free, with `required`, `daily_cap`, `spent_today` and a Retry-After no later than the next
 *    midnight UTC.
 *  - 406 not_acceptable on every operation under /api/ for `Accept: application/xml`, free, with
 *    the operation's media types in `supported`; and `Accept: text/csv` where the contract offers
 *    it answers CSV, charged the price.
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
  searchAdvertisers: 'q=someone%20else',
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
  poor: Caller,
  log: (line: string) => void,
): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  const call = async (
    baseUrl: string,
    key: string,
    operationId: string,
    query: string | undefined,
    headers: Record<string, string> = {},
  ) => sendOperation(baseUrl, key, operationId, { query: query ?? QUERY[operationId], headers });

  log('Insufficient credits: well-formed input with a key whose balance is below every price is 402, free');
  const poorBalance = await balanceOf(sql, poor.accountId);
  for (const [index, operation] of contractOperations.filter((op) => op.creditCost > 0).entries()) {
    const id = operation.operationId;
    // Both security schemes: every other call sends the key in x-api-key instead of Authorization.
    const headers: Record<string, string> = index % 2 === 0 ? {} : { 'x-api-key': poor.key };
    const refused = await call(mainUrl, poor.key, id, undefined, { 'Idempotency-Key': randomUUID(), ...headers });
    const { body } = refused.response;
    expect(
      refused.response.status === 402 && body.error === 'insufficient_credits',
      `${id}: a key without credits`,
      refused.response,
    );
    expect(
      body.required === operation.creditCost && body.balance === poorBalance,
      `${id}: required and balance`,
      refused.response,
    );
    await expectFree(sql, poor.accountId, poorBalance, refused.response, `${id}: 402`);
    records.push({
      operation: refused.label,
      status: 402,
      error: 'insufficient_credits',
      mechanism: 'key without credits',
      detail: `free; balance ${poorBalance}`,
      key: 'poor',
    });
  }

  log('Daily cap: well-formed input with a key whose daily cap is below every price is 403, free');
  const capped = await cappedKey(sql);
  const billed = contractOperations.filter((op) => op.creditCost > 0);
  const cheapest = billed.reduce((a, b) => (b.creditCost < a.creditCost ? b : a));
  if (cheapest.creditCost !== 1) throw new Error(`${cheapest.operationId} costs more than the cap of 1 credit`);
  const spent = await call(mainUrl, capped.key, cheapest.operationId, undefined);
  expect(spent.response.status === 200, `${cheapest.operationId}: a call within the cap`, spent.response);
  for (const operation of billed) {
    const id = operation.operationId;
    const before = await balanceOf(sql, capped.accountId);
    const refused = await call(mainUrl, capped.key, id, undefined);
    const { body } = refused.response;
    expect(
      refused.response.status === 403 && body.error === 'daily_cap_reached',
      `${id}: a key past its daily cap`,
      refused.response,
    );
    expect(
      body.required === operation.creditCost && body.daily_cap === 1 && body.spent_today === 1,
      `${id}: required, daily_cap and spent_today`,
      refused.response,
    );
    const retryAfter = Number(refused.response.headers.get('retry-after'));
    expect(retryAfter >= 1 && retryAfter <= 86_400, `${id}: Retry-After until midnight UTC`, refused.response);
    await expectFree(sql, capped.accountId, before, refused.response, `${id}: 403`);
    records.push({
      operation: refused.label,
      status: 403,
      error: 'daily_cap_reached',
      mechanism: 'key with a daily cap',
      detail: `free; cap 1 credit, Retry-After ${retryAfter} s`,
    });
  }

  log('Idempotency-Key: a retry is replayed and not charged; another query is 422, a malformed key 400, both free');
  for (const operation of contractOperations.filter((op) => op.creditCost > 0)) {
    const id = operation.operationId;
    const idempotencyKey = randomUUID();
    const before = await balanceOf(sql, funded.accountId);
    const first = await call(mainUrl, funded.key, id, undefined, { 'Idempotency-Key': idempotencyKey });
    expect(
      first.response.status === 200 && first.response.headers.get('idempotent-replayed') === null,
      `${id}: first call`,
      first.response,
    );
    expect(
      (await balanceOf(sql, funded.accountId)) === before - operation.creditCost,
      `${id}: the first call costs the price`,
      first.response,
    );

    const retry = await call(mainUrl, funded.key, id, undefined, { 'Idempotency-Key': idempotencyKey });
    expect(
      retry.response.status === first.response.status && retry.response.text === first.response.text,
      `${id}: the retry replays the first response`,
      retry.response,
    );
    expect(retry.response.headers.get('idempotent-replayed') === 'true', `${id}: Idempotent-Replayed`, retry.response);
    await expectFree(sql, funded.accountId, before - operation.creditCost, retry.response, `${id}: replay`);

    const reused = await call(mainUrl, funded.key, id, OTHER_QUERY[id], { 'Idempotency-Key': idempotencyKey });
    expect(
      reused.response.status === 422 && reused.response.body.error === 'idempotency_key_reused',
      `${id}: reuse`,
      reused.response,
    );
    await expectFree(sql, funded.accountId, before - operation.creditCost, reused.response, `${id}: 422`);
    records.push({
      operation: reused.label,
      status: 422,
      error: 'idempotency_key_reused',
      mechanism: 'Idempotency-Key sequence',
      detail: 'free; the retry before it was replayed, free',
    });

    const malformed = await call(mainUrl, funded.key, id, undefined, { 'Idempotency-Key': 'two words' });
    expect(
      malformed.response.status === 400 && malformed.response.body.error === 'invalid_idempotency_key',
      `${id}: malformed key`,
      malformed.response,
    );
    await expectFree(sql, funded.accountId, before - operation.creditCost, malformed.response, `${id}: 400`);
    records.push({
      operation: malformed.label,
      status: 400,
      error: 'invalid_idempotency_key',
      mechanism: 'Idempotency-Key sequence',
      detail: 'free',
    });
  }

  log('Accept: an Accept that allows none of the media types is 406, free; text/csv where offered is CSV, charged');
  for (const operation of contractOperations.filter(
    (op) => '406' in spec.paths[op.path][op.method.toLowerCase()].responses,
  )) {
    const id = operation.operationId;
    const before = await balanceOf(sql, funded.accountId);
    const refused = await call(mainUrl, funded.key, id, undefined, { accept: 'application/xml' });
    const { body } = refused.response;
    expect(
      refused.response.status === 406 && body.error === 'not_acceptable',
      `${id}: Accept: application/xml`,
      refused.response,
    );
    expect(
      JSON.stringify(body.supported) === JSON.stringify(operation.mediaTypes),
      `${id}: supported`,
      refused.response,
    );
    await expectFree(sql, funded.accountId, before, refused.response, `${id}: 406`);
    records.push({
      operation: refused.label,
      status: 406,
      error: 'not_acceptable',
      mechanism: 'Accept: application/xml',
      detail: `free; supported ${operation.mediaTypes.join(', ')}`,
    });
    if (!operation.mediaTypes.includes('text/csv')) continue;
    const csv = await call(mainUrl, funded.key, id, undefined, { accept: 'text/csv' });
    expect(
      csv.response.status === 200 && csv.response.headers.get('content-type')?.startsWith('text/csv;') === true,
      `${id}: Accept: text/csv`,
      csv.response,
    );
    expect(
      (await balanceOf(sql, funded.accountId)) === before - operation.creditCost,
      `${id}: CSV costs the price`,
      csv.response,
    );
  }

  log(
    `Rate limit: a second service process allowing ${RATE_LIMIT_QUOTA} requests per key and minute answers 429, free`,
  );
  const account = await createAccount(sql);
  const { key } = await createApiKey(sql, account.id);
  const balance = await balanceOf(sql, account.id);
  for (let i = 0; i < RATE_LIMIT_QUOTA; i++) {
    const { response } = await call(limitedUrl, key, 'getAccount', undefined);
    expect(response.status === 200, 'within the quota', response);
  }
  // Every operation that documents 429: those a customer's key calls (/healthz, /readyz and
  // /metrics take no key, so no per-key quota applies to them).
  for (const operation of contractOperations.filter(
    (op) => '429' in spec.paths[op.path][op.method.toLowerCase()].responses,
  )) {
    const { label, response } = await call(
      limitedUrl,
      key,
      operation.operationId,
      undefined,
      operation.creditCost > 0 ? { 'Idempotency-Key': randomUUID() } : {},
    );
    expect(
      response.status === 429 && response.body.error === 'rate_limited',
      `${operation.operationId}: over the quota`,
      response,
    );
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter >= 1 && retryAfter <= 60, `${operation.operationId}: Retry-After`, response);
    expect(
      response.headers.get('ratelimit') === `"per-key";r=0;t=${retryAfter}`,
      `${operation.operationId}: RateLimit`,
      response,
    );
    expect(
      response.headers.get('ratelimit-policy') === `"per-key";q=${RATE_LIMIT_QUOTA};w=60`,
      `${operation.operationId}: RateLimit-Policy`,
      response,
    );
    await expectFree(sql, account.id, balance, response, `${operation.operationId}: 429`);
    records.push({
      operation: label,
      status: 429,
      error: 'rate_limited',
      mechanism: `service with RATE_LIMIT_PER_MINUTE=${RATE_LIMIT_QUOTA}`,
      detail: `free; Retry-After ${retryAfter}`,
    });
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
async function expectFree(
  sql: Sql,
  accountId: number,
  balance: number,
  response: ValidatedResponse,
  what: string,
): Promise<void> {
  const requestId = response.headers.get('x-request-id')!;
  const [{ rows }] = await sql<
    { rows: number }[]
  >`SELECT count(*)::int AS rows FROM ledger WHERE request_id = ${requestId}`;
  expect(rows === 0, `${what}: the ledger has ${rows} rows for a free answer`, response);
  expect((await balanceOf(sql, accountId)) === balance, `${what}: the balance changed`, response);
  expect(
    response.headers.get('x-credits-charged') === '0' &&
      response.headers.get('x-credits-remaining') === String(balance),
    `${what}: credit headers`,
    response,
  );
}

function expect(
  condition: boolean,
  what: string,
  response: { status: number; body?: unknown; headers?: Headers },
): void {
  if (!condition) {
    const headers = response.headers ? Object.fromEntries(response.headers.entries()) : {};
    throw new Error(
      `retries and limits, ${what}: unexpected answer ${response.status} ` +
        `${JSON.stringify(response.body)} ${JSON.stringify(headers)}`,
    );
  }
}

/** A key with credits and a daily cap of 1 credit, the price of the cheapest operation. */
async function cappedKey(sql: Sql): Promise<Caller> {
  const account = await createAccount(sql);
  const created = await createApiKey(sql, account.id, { name: 'contract run: capped' });
  await setDailyCap(sql, account.id, created.id, 1);
  return { key: created.key, accountId: account.id };
}
