// @module-tag runtime
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_UNAUTHORIZED_FLOOR_MS } from '../../src/config.ts';
import { generateApiKey } from '../../src/contract/api-key.ts';
import { setAccountDisabled } from '../../src/data/accounts.ts';
import { revokeApiKey } from '../../src/data/api-keys.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { testApp } from '../support/app.ts';
import { startHttpServer, type TestHttpServer } from '../support/http.ts';

/**
 * The time of a 401 does not tell why the key was refused (docs/product-rules.md R4.9, R4.11), measured over
 * the real HTTP server: every refused-key case is sent ROUNDS times, interleaved in a new random
 * order each round so that drifts of a loaded machine hit all cases alike, and the cases' medians
 * are compared. A median ignores the odd slow request of a busy CI machine; the tolerance is a
 * few milliseconds, so an extra slow query or a deliberately slow hash (bcrypt takes tens of ms)
 * in one case fails the test, while sub-millisecond jitter does not.
 *
 * Unknown and revoked keys and disabled accounts run one and the same lookup, which finds no
 * active key. A wrong checksum, a key in the URL and no key are refused without a lookup
 * (docs/product-rules.md R4.7, R5.3), one database round trip sooner; every 401 waits out the same floor
 * (src/http/refusal-timing.ts), which evens that out without a database lookup.
 */
// Slow for a reason (15-25 s): a median within TOLERANCE_MS needs this many samples of each case,
// and every 401 waits out the refusal floor.
const ROUNDS = 200;
const WARM_UP_ROUNDS = 20;
/** How far apart two cases' medians may be, in milliseconds. */
const TOLERANCE_MS = 3;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

interface Case {
  path: string;
  headers: Record<string, string>;
}

/**
 * Sends every case ROUNDS times (after a warm-up), interleaved in a new random order each round; the median time of
 * each.
 */
async function medianTimes(
  baseUrl: string,
  cases: Record<string, Case>,
): Promise<{ medians: Record<string, number>; report: string }> {
  const timings: Record<string, number[]> = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
    for (const name of shuffled(Object.keys(cases))) {
      const { path, headers } = cases[name];
      const started = performance.now();
      const response = await fetch(`${baseUrl}${path}`, { headers });
      await response.arrayBuffer();
      const elapsed = performance.now() - started;
      expect(response.status, name).toBe(401);
      expect(response.headers.get('x-credits-charged'), name).toBeNull();
      if (round >= WARM_UP_ROUNDS) timings[name].push(elapsed);
    }
  }
  const medians = Object.fromEntries(Object.entries(timings).map(([name, values]) => [name, median(values)]));
  const report = Object.entries(medians)
    .map(([name, value]) => `${name}: ${value.toFixed(3)} ms`)
    .join(', ');
  console.log(`401 medians over ${ROUNDS} requests each: ${report}`);
  return { medians, report };
}

const spread = (values: number[]) => Math.max(...values) - Math.min(...values);

describe('401 response times do not tell the refusal cases apart', () => {
  let api: TestApi;
  let served: TestHttpServer;
  let unfloored: TestHttpServer;
  const cases: Record<string, Case> = {};
  const lookedUp = ['unknown key', 'revoked key', 'disabled account'];
  const notLookedUp = ['wrong checksum', 'key in the query string', 'no key'];
  let ledgerBefore: unknown;
  const ledger = () =>
    api.db.sql`SELECT count(*)::integer AS rows, coalesce(sum(amount), 0)::bigint AS total FROM ledger`;

  beforeAll(async () => {
    api = await createTestApi();
    served = await startHttpServer(testApp({ sql: api.db.sql, unauthorizedFloorMs: DEFAULT_UNAUTHORIZED_FLOOR_MS }));
    unfloored = await startHttpServer(testApp({ sql: api.db.sql, unauthorizedFloorMs: 0 }));
    // Other accounts and keys in the table, so that the lookups search a populated index.
    for (let i = 0; i < 50; i++) await api.newKey(100);
    const revoked = await api.newKey(1000);
    await revokeApiKey(api.db.sql, revoked.keyId);
    const disabled = await api.newKey(1000);
    await setAccountDisabled(api.db.sql, disabled.accountId, true);
    const valid = await api.newKey(1000);
    const path = '/api/v1/advertiser?name=Nobody';
    const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
    cases['unknown key'] = { path, headers: bearer(generateApiKey().key) };
    cases['revoked key'] = { path, headers: bearer(revoked.key) };
    cases['disabled account'] = { path, headers: bearer(disabled.key) };
    cases['wrong checksum'] = { path, headers: bearer(valid.key.slice(0, -1) + (valid.key.endsWith('A') ? 'B' : 'A')) };
    cases['key in the query string'] = { path: `${path}&api_key=${valid.key}`, headers: bearer(valid.key) };
    cases['no key'] = { path, headers: {} };
    ledgerBefore = await ledger();
  });
  afterAll(async () => {
    await served.close();
    await unfloored.close();
    // None of the refused calls charged anything or wrote a ledger row.
    expect(await ledger()).toEqual(ledgerBefore);
    await api.close();
  });

  it(`as served: the medians of ${ROUNDS} interleaved requests ` +
    `per case lie within ${TOLERANCE_MS} ms of each other`, async () => {
    const { medians, report } = await medianTimes(served.url, cases);
    expect(spread(Object.values(medians)), report).toBeLessThanOrEqual(TOLERANCE_MS);
    // The cases refused without a lookup are evened out by the floor, not by luck.
    for (const name of notLookedUp)
      expect(medians[name], `${name}; ${report}`).toBeGreaterThanOrEqual(DEFAULT_UNAUTHORIZED_FLOOR_MS - 1);
  }, 120_000);

  it('under the floor: the lookups of unknown, revoked and ' +
    'disabled keys cost the same, and no case does extra work', async () => {
    const { medians, report } = await medianTimes(unfloored.url, cases);
    expect(spread(lookedUp.map((name) => medians[name])), report).toBeLessThanOrEqual(TOLERANCE_MS);
    // Without a lookup, never slower than with one.
    for (const name of notLookedUp)
      expect(medians[name], `${name}; ${report}`).toBeLessThanOrEqual(Math.max(...lookedUp.map((n) => medians[n])));
  }, 120_000);
});
