// @module-tag runtime
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RATE_LIMIT_PER_MINUTE, loadConfig } from '../../src/config.ts';
import { generateApiKey } from '../../src/contract/api-key.ts';
import { createApiKey } from '../../src/data/accounts.ts';
import { revokeApiKey } from '../../src/data/api-keys.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { DEFAULT_RATE_LIMIT } from '../support/app.ts';

/**
 * The per-key rate limit (docs/product-rules.md §8): 429 rate_limited with Retry-After and the RateLimit /
 * RateLimit-Policy fields of draft-ietf-httpapi-ratelimit-headers-11, never charged, and the
 * order of checks of docs/product-rules.md §5 around it (§8 is the limit itself). The apps here
 * allow 3 requests per key.
 */
const QUOTA = 3;
const POLICY = `"per-key";q=${QUOTA};w=60`;
const RATE_LIMIT = /^"per-key";r=(\d+);t=(\d+)$/;

function standing(response: { headers: Headers }): { r: number; t: number } | null {
  const match = RATE_LIMIT.exec(response.headers.get('ratelimit') ?? '');
  return match ? { r: Number(match[1]), t: Number(match[2]) } : null;
}

describe('per-key rate limit', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ rateLimit: { requests: QUOTA, windowSeconds: 60 } });
  });
  afterAll(async () => {
    await api.close();
  });

  it(
    'every answer to a valid key carries RateLimit-Policy ' + 'and RateLimit, counting down the requests left',
    async () => {
      const { key } = await api.newKey(100);
      const seen = [];
      for (const path of [
        '/api/v1/account',
        '/api/v1/advertiser?name=Nobody',
        '/api/v1/domain?domain=nothing-here.com',
      ]) {
        const response = await api.request(path, { key });
        expect(response.headers.get('ratelimit-policy')).toBe(POLICY);
        seen.push(standing(response));
      }
      expect(seen.map((s) => s?.r)).toEqual([2, 1, 0]);
      for (const s of seen) expect(s!.t).toBeGreaterThan(55);
      for (const s of seen) expect(s!.t).toBeLessThanOrEqual(60);
    },
  );

  it('over the quota: 429 rate_limited, free, with Retry-After, RateLimit r=0 and the credit headers', async () => {
    const { key, accountId } = await api.newKey(100);
    for (let i = 0; i < QUOTA; i++)
      expect((await api.request('/api/v1/advertiser?name=Nobody', { key })).status).toBe(404);
    for (const path of ['/api/v1/advertiser?name=Nobody', '/api/v1/brandbid?domain=acme.com', '/api/v1/account']) {
      const limited = await api.request(path, { key });
      expect(limited.status, path).toBe(429);
      expect(limited.body).toEqual({
        error: 'rate_limited',
        message: `This API key may make ${QUOTA} requests per 60 seconds. Retry after the seconds in Retry-After.`,
      });
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(standing(limited)).toEqual({ r: 0, t: retryAfter });
      expect(limited.headers.get('ratelimit-policy')).toBe(POLICY);
      expect(limited.headers.get('x-credits-charged')).toBe('0');
      expect(limited.headers.get('x-credits-remaining')).toBe('91');
    }
    expect(await api.balanceOf(accountId)).toBe(91);
    expect(await api.ledgerSum(accountId)).toBe(91);
    const [{ n }] = await api.db
      .sql`SELECT count(*)::int AS n FROM ledger WHERE account_id = ${accountId} AND kind = 'charge'
        AND endpoint <> 'test-setup'`;
    expect(n).toBe(QUOTA);
  });

  it('keys are limited independently, also two keys of one account', async () => {
    const first = await api.newKey(100);
    const second = await createApiKey(api.db.sql, first.accountId);
    const other = await api.newKey(100);
    for (let i = 0; i < QUOTA; i++) await api.request('/api/v1/account', { key: first.key });
    expect((await api.request('/api/v1/account', { key: first.key })).status).toBe(429);
    const sibling = await api.request('/api/v1/account', { key: second.key });
    expect(sibling.status).toBe(200);
    expect(standing(sibling)?.r).toBe(QUOTA - 1);
    expect((await api.request('/api/v1/account', { key: other.key })).status).toBe(200);
  });

  it('a key that is not valid gets 401, never 429, and no RateLimit headers', async () => {
    const unknown = generateApiKey().key;
    for (let i = 0; i < QUOTA + 3; i++) {
      const response = await api.request('/api/v1/advertiser?name=Nobody', { key: unknown });
      expect(response.status).toBe(401);
      expect(response.headers.get('ratelimit')).toBeNull();
      expect(response.headers.get('ratelimit-policy')).toBeNull();
    }
    // A key that used up its quota and was then revoked: the key check comes first.
    const { key, keyId } = await api.newKey(100);
    for (let i = 0; i < QUOTA; i++) await api.request('/api/v1/account', { key });
    expect((await api.request('/api/v1/account', { key })).status).toBe(429);
    await revokeApiKey(api.db.sql, keyId);
    for (const path of ['/api/v1/account', '/api/v1/advertiser?name=Nobody', '/api/v1/advertiser?name=']) {
      const response = await api.request(path, { key });
      expect(response.status, path).toBe(401);
      expect(response.headers.get('ratelimit'), path).toBeNull();
    }
    const withIdempotencyKey = await api.request('/api/v1/advertiser?name=Nobody', {
      key,
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(withIdempotencyKey.status).toBe(401);
  });

  it('400 and 422 do not count towards the quota; 402 and replays do', async () => {
    const { key } = await api.newKey(3);
    const idempotencyKey = randomUUID();
    expect(
      (await api.request('/api/v1/advertiser?name=Nobody', { key, headers: { 'Idempotency-Key': idempotencyKey } }))
        .status,
    ).toBe(404);
    for (const path of ['/api/v1/advertiser?name=', '/api/v1/domain?domain=localhost']) {
      const rejected = await api.request(path, { key });
      expect(rejected.status).toBe(400);
      expect(standing(rejected)?.r).toBe(QUOTA - 1);
    }
    const reused = await api.request('/api/v1/advertiser?name=Other', {
      key,
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect(reused.status).toBe(422);
    expect(standing(reused)?.r).toBe(QUOTA - 1);
    const replay = await api.request('/api/v1/advertiser?name=Nobody', {
      key,
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(standing(replay)?.r).toBe(QUOTA - 2);
    const poor = await api.request('/api/v1/advertiser?name=Nobody', { key });
    expect(poor.status).toBe(402);
    expect(standing(poor)?.r).toBe(0);
    expect((await api.request('/api/v1/account', { key })).status).toBe(429);
  });

  it('order of checks: 400 before 422 before 429 before 402', async () => {
    const { key, accountId } = await api.newKey(3);
    const idempotencyKey = randomUUID();
    expect(
      (await api.request('/api/v1/advertiser?name=Nobody', { key, headers: { 'Idempotency-Key': idempotencyKey } }))
        .status,
    ).toBe(404);
    // Balance 0 now; use up the rest of the quota.
    for (let i = 1; i < QUOTA; i++)
      expect((await api.request('/api/v1/advertiser?name=Nobody', { key })).status).toBe(402);
    const call = (path: string, idempotency?: string) =>
      api.request(path, { key, headers: idempotency ? { 'Idempotency-Key': idempotency } : {} });
    // Invalid parameters beat a reused key, a spent quota and an empty balance.
    expect((await call('/api/v1/advertiser?name=', idempotencyKey)).body.error).toBe('missing_name');
    expect((await call('/api/v1/advertiser?name=Other', 'bad key')).body.error).toBe('invalid_idempotency_key');
    // A reused key beats the spent quota and the balance.
    expect((await call('/api/v1/advertiser?name=Other', idempotencyKey)).status).toBe(422);
    // The spent quota beats the balance, with or without an Idempotency-Key.
    expect((await call('/api/v1/advertiser?name=Other')).status).toBe(429);
    expect((await call('/api/v1/advertiser?name=Other', randomUUID())).status).toBe(429);
    expect(await api.balanceOf(accountId)).toBe(0);
    expect(await api.ledgerSum(accountId)).toBe(0);
  });

  it(
    'a request limited while holding a fresh Idempotency-Key ' + 'gives the key back, so the retry runs later',
    async () => {
      const { key, accountId } = await api.newKey(100);
      for (let i = 0; i < QUOTA; i++) await api.request('/api/v1/account', { key });
      const idempotencyKey = randomUUID();
      expect(
        (await api.request('/api/v1/advertiser?name=Nobody', { key, headers: { 'Idempotency-Key': idempotencyKey } }))
          .status,
      ).toBe(429);
      const [{ n }] = await api.db.sql`SELECT count(*)::int AS n FROM idempotency_keys WHERE account_id = ${accountId}`;
      expect(n).toBe(0);
    },
  );
});

describe('rate limit windows and settings', () => {
  const apis: TestApi[] = [];
  afterEach(async () => {
    await Promise.all(apis.splice(0).map((api) => api.close()));
  });

  it('the quota comes back when the window ends', async () => {
    const api = await createTestApi({ rateLimit: { requests: 2, windowSeconds: 1 } });
    apis.push(api);
    const { key } = await api.newKey(10);
    expect((await api.request('/api/v1/account', { key })).status).toBe(200);
    expect((await api.request('/api/v1/account', { key })).status).toBe(200);
    const limited = await api.request('/api/v1/account', { key });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    await sleep(1100);
    const back = await api.request('/api/v1/account', { key });
    expect(back.status).toBe(200);
    expect(standing(back)?.r).toBe(1);
  });

  it('a replay within the quota comes before 402: a key without credits still gets its paid answer back', async () => {
    const api = await createTestApi({ rateLimit: { requests: 10, windowSeconds: 60 } });
    apis.push(api);
    const { key } = await api.newKey(3);
    const idempotencyKey = randomUUID();
    const first = await api.request('/api/v1/advertiser?name=Nobody', {
      key,
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    const replay = await api.request('/api/v1/advertiser?name=Nobody', {
      key,
      headers: { 'Idempotency-Key': idempotencyKey },
    });
    expect(replay.status).toBe(404);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('x-credits-remaining')).toBe('0');
  });

  it('turned off (a quota of 0): no RateLimit headers and no 429', async () => {
    const api = await createTestApi({ rateLimit: { requests: 0, windowSeconds: 60 } });
    apis.push(api);
    const { key } = await api.newKey(10);
    for (let i = 0; i < 20; i++) {
      const response = await api.request('/api/v1/account', { key });
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit')).toBeNull();
      expect(response.headers.get('ratelimit-policy')).toBeNull();
    }
  });

  it('the default is generous: 600 requests per minute per key, the same as the service default', async () => {
    expect(DEFAULT_RATE_LIMIT).toEqual({ requests: 600, windowSeconds: 60 });
    const api = await createTestApi();
    apis.push(api);
    const { key } = await api.newKey(10);
    const response = await api.request('/api/v1/account', { key });
    expect(response.headers.get('ratelimit-policy')).toBe('"per-key";q=600;w=60');
    expect(standing(response)?.r).toBe(599);
  });

  it('RATE_LIMIT_PER_MINUTE sets the quota; 0 or off turns the limit off; anything else is refused', () => {
    const saved = process.env.RATE_LIMIT_PER_MINUTE;
    try {
      delete process.env.RATE_LIMIT_PER_MINUTE;
      expect(loadConfig().rateLimitPerMinute).toBe(DEFAULT_RATE_LIMIT_PER_MINUTE);
      process.env.RATE_LIMIT_PER_MINUTE = '120';
      expect(loadConfig().rateLimitPerMinute).toBe(120);
      process.env.RATE_LIMIT_PER_MINUTE = '0';
      expect(loadConfig().rateLimitPerMinute).toBe(0);
      process.env.RATE_LIMIT_PER_MINUTE = 'off';
      expect(loadConfig().rateLimitPerMinute).toBe(0);
      process.env.RATE_LIMIT_PER_MINUTE = '-5';
      expect(() => loadConfig()).toThrow(/RATE_LIMIT_PER_MINUTE/);
      process.env.RATE_LIMIT_PER_MINUTE = 'lots';
      expect(() => loadConfig()).toThrow(/RATE_LIMIT_PER_MINUTE/);
    } finally {
      if (saved === undefined) delete process.env.RATE_LIMIT_PER_MINUTE;
      else process.env.RATE_LIMIT_PER_MINUTE = saved;
    }
  });
});
