import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLAIM_ABANDONED_AFTER_MS,
  IDEMPOTENCY_KEY_LIFETIME_MS,
  WAIT_FOR_FIRST_REQUEST_MS,
} from '../../src/billing/idempotency.ts';
import { addCredits, createApiKey } from '../../src/data/accounts.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { debit } from '../support/debit.ts';
import { loadFixture, NOW } from '../support/fixture.ts';

/**
 * "Retries never pay twice" (docs/product-rules.md §7): the Idempotency-Key header on billed
 * calls. The service clock is a variable, so 24-hour expiry and abandoned claims are tested by
 * moving it, not by waiting.
 */
describe('Idempotency-Key: retries never pay twice', () => {
  let api: TestApi;
  let clock = NOW;
  beforeAll(async () => {
    api = await createTestApi({ now: () => clock });
    await loadFixture(api.db.sql);
  });
  afterAll(async () => {
    await api.close();
  });

  const SUMMARY = '/api/v1/advertiser?name=Acme%20Outdoor%20GmbH';
  const withKey = (key: string, idempotencyKey: string, extra: Record<string, string> = {}) => ({
    key,
    headers: { 'Idempotency-Key': idempotencyKey, ...extra },
  });

  async function charges(accountId: number): Promise<{ amount: number; endpoint: string; request_id: string }[]> {
    return api.db.sql`
      SELECT amount, endpoint, request_id FROM ledger
      WHERE account_id = ${accountId} AND kind = 'charge' AND endpoint <> 'test-setup' ORDER BY id`;
  }

  it(
    'a retry with the same key replays the first response ' +
      'byte for byte, charges nothing, and says it was replayed',
    async () => {
      const { key, accountId } = await api.newKey(100);
      const idempotencyKey = randomUUID();
      const first = await api.request(SUMMARY, withKey(key, idempotencyKey));
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ advertiser: 'Acme Outdoor GmbH', credits_charged: 3, credits_remaining: 97 });
      expect(first.headers.get('idempotent-replayed')).toBeNull();

      // Another paid call in between, so the replay's balance header must differ from its body.
      await api.request('/api/v1/domain?domain=acme-outdoor.com', { key });

      const retry = await api.request(SUMMARY, withKey(key, idempotencyKey));
      expect(retry.status).toBe(200);
      expect(retry.text).toBe(first.text);
      expect(retry.headers.get('content-type')).toBe(first.headers.get('content-type'));
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.headers.get('x-credits-charged')).toBe('0');
      expect(retry.headers.get('x-credits-remaining')).toBe('94');
      expect(retry.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));

      expect(await charges(accountId)).toEqual([
        { amount: -3, endpoint: 'getAdvertiserSummary', request_id: first.headers.get('x-request-id') },
        { amount: -3, endpoint: 'getDomainSummary', request_id: expect.any(String) },
      ]);
      expect(await api.balanceOf(accountId)).toBe(94);
      expect(await api.ledgerSum(accountId)).toBe(94);
    },
  );

  it('a charged data 404 is replayed too, on every billed operation', async () => {
    const { key, accountId } = await api.newKey(500);
    const paths = [
      '/api/v1/advertiser?name=Nobody',
      '/api/v1/domain?domain=nothing-here.com',
      '/api/v1/advertiser/history?name=Nobody',
      '/api/v1/advertiser/domains?name=Nobody',
      '/api/v1/brandbid?domain=nothing-here.com',
    ];
    for (const path of paths) {
      const idempotencyKey = randomUUID();
      const first = await api.request(path, withKey(key, idempotencyKey));
      expect(first.status, path).toBe(404);
      const retry = await api.request(path, withKey(key, idempotencyKey));
      expect(retry.status, path).toBe(404);
      expect(retry.text, path).toBe(first.text);
      expect(retry.headers.get('idempotent-replayed'), path).toBe('true');
      expect(retry.headers.get('x-credits-charged'), path).toBe('0');
    }
    expect((await charges(accountId)).map((charge) => charge.amount)).toEqual([-3, -3, -9, -15, -60]);
    expect(await api.balanceOf(accountId)).toBe(500 - 90);
  });

  it(
    '"the same query" is the query as the service understands it: a ' +
      'differently spelled domain, unknown parameters and HEAD replay',
    async () => {
      const { key, accountId } = await api.newKey(200);
      const idempotencyKey = randomUUID();
      const first = await api.request('/api/v1/domain?domain=acme-outdoor.com', withKey(key, idempotencyKey));
      expect(first.status).toBe(200);
      const spelled = await api.request(
        '/api/v1/domain?domain=https://WWW.Acme-Outdoor.com/shop&utm=x',
        withKey(key, idempotencyKey),
      );
      expect(spelled.headers.get('idempotent-replayed')).toBe('true');
      expect(spelled.text).toBe(first.text);
      const head = await api.request('/api/v1/domain?domain=acme-outdoor.com', {
        ...withKey(key, idempotencyKey),
        method: 'HEAD',
      });
      expect(head.status).toBe(200);
      expect(head.headers.get('idempotent-replayed')).toBe('true');
      expect(await charges(accountId)).toHaveLength(1);
    },
  );

  it('422 idempotency_key_reused: the same key with another query or another operation, free', async () => {
    const { key, accountId } = await api.newKey(100);
    const idempotencyKey = randomUUID();
    expect((await api.request(SUMMARY, withKey(key, idempotencyKey))).status).toBe(200);

    for (const path of [
      '/api/v1/advertiser?name=Clickwave%20Media%20Ltd',
      '/api/v1/advertiser/history?name=Acme%20Outdoor%20GmbH',
      '/api/v1/domain?domain=acme-outdoor.com',
    ]) {
      const reused = await api.request(path, withKey(key, idempotencyKey));
      expect(reused.status, path).toBe(422);
      expect(reused.body, path).toEqual({
        error: 'idempotency_key_reused',
        message: expect.stringContaining('another operation or query'),
      });
      expect(reused.headers.get('x-credits-charged'), path).toBe('0');
      expect(reused.headers.get('x-credits-remaining'), path).toBe('97');
    }
    expect(await charges(accountId)).toHaveLength(1);
    expect(await api.balanceOf(accountId)).toBe(97);
    // The key still stands for its first request.
    expect((await api.request(SUMMARY, withKey(key, idempotencyKey))).headers.get('idempotent-replayed')).toBe('true');
  });

  it(
    'a key belongs to its account: another account, and another key ' +
      'of the same account, share nothing and everything respectively',
    async () => {
      const one = await api.newKey(100);
      const other = await api.newKey(100);
      const idempotencyKey = randomUUID();
      expect((await api.request(SUMMARY, withKey(one.key, idempotencyKey))).status).toBe(200);
      const elsewhere = await api.request('/api/v1/domain?domain=acme-outdoor.com', withKey(other.key, idempotencyKey));
      expect(elsewhere.status).toBe(200);
      expect(elsewhere.headers.get('idempotent-replayed')).toBeNull();
      // A second key of the first account: same account, so the same key replays.
      const second = await createApiKey(api.db.sql, one.accountId);
      const sibling = await api.request(SUMMARY, withKey(second.key, idempotencyKey));
      expect(sibling.headers.get('idempotent-replayed')).toBe('true');
      expect(await charges(one.accountId)).toHaveLength(1);
      expect(await charges(other.accountId)).toHaveLength(1);
    },
  );

  it('concurrency: 20 parallel requests with one key give exactly one charge and 20 identical bodies', async () => {
    const { key, accountId } = await api.newKey(100);
    const idempotencyKey = randomUUID();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        api.request('/api/v1/brandbid?domain=acme-outdoor.com', withKey(key, idempotencyKey)),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(responses.map((r) => r.text)).size).toBe(1);
    expect(responses[0].body.credits_charged).toBe(60);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(responses.filter((r) => r.headers.get('x-credits-charged') === '60')).toHaveLength(1);
    expect(await charges(accountId)).toHaveLength(1);
    expect(await api.balanceOf(accountId)).toBe(40);
    expect(await api.ledgerSum(accountId)).toBe(40);
  });

  it(
    'concurrency on a balance that covers one call: one ' + 'charge, the others replay it instead of answering 402',
    async () => {
      const { key, accountId } = await api.newKey(60);
      const idempotencyKey = randomUUID();
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          api.request('/api/v1/brandbid?domain=acme-outdoor.com', withKey(key, idempotencyKey)),
        ),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(await charges(accountId)).toHaveLength(1);
      expect(await api.balanceOf(accountId)).toBe(0);
    },
  );

  it(
    'a key is remembered for 24 hours: after that it runs and pays ' +
      'again, and may stand for another query; expired rows are purged',
    async () => {
      const { key, accountId } = await api.newKey(100);
      const idempotencyKey = randomUUID();
      try {
        expect((await api.request(SUMMARY, withKey(key, idempotencyKey))).status).toBe(200);
        clock = new Date(NOW.getTime() + IDEMPOTENCY_KEY_LIFETIME_MS - 1000);
        expect((await api.request(SUMMARY, withKey(key, idempotencyKey))).headers.get('idempotent-replayed')).toBe(
          'true',
        );
        clock = new Date(NOW.getTime() + IDEMPOTENCY_KEY_LIFETIME_MS + 1000);
        const later = await api.request('/api/v1/domain?domain=acme-outdoor.com', withKey(key, idempotencyKey));
        expect(later.status).toBe(200);
        expect(later.headers.get('idempotent-replayed')).toBeNull();
        expect((await charges(accountId)).map((c) => c.endpoint)).toEqual(['getAdvertiserSummary', 'getDomainSummary']);

        // Keys of other accounts that expired meanwhile are gone from the table (purged at most every 10 minutes).
        const stale = await api.newKey(10);
        await api.db.sql`
        INSERT INTO idempotency_keys (account_id, idempotency_key, operation, query, state, request_id, created_at,
          claimed_at)
        VALUES (${stale.accountId}, 'old', 'getAdvertiserSummary', 'name=x', 'running', 'r-old', ${NOW}, ${NOW})`;
        clock = new Date(clock.getTime() + 11 * 60 * 1000);
        expect((await api.request(SUMMARY, withKey(key, randomUUID()))).status).toBe(200);
        const [{ n }] = await api.db.sql`SELECT count(*)::int AS n FROM idempotency_keys
          WHERE created_at <= ${new Date(clock.getTime() - IDEMPOTENCY_KEY_LIFETIME_MS)}`;
        expect(n).toBe(0);
      } finally {
        clock = NOW;
      }
    },
  );

  it('a refunded 5xx is not stored: the retry runs again and the key is charged once in the end', async () => {
    const { key, accountId } = await api.newKey(100);
    const idempotencyKey = randomUUID();
    await api.db.sql`ALTER TABLE identifiers RENAME TO identifiers_gone`;
    let failed: Awaited<ReturnType<typeof api.request>>;
    try {
      failed = await api.request('/api/v1/advertiser/domains?name=Acme%20Outdoor%20GmbH', withKey(key, idempotencyKey));
    } finally {
      await api.db.sql`ALTER TABLE identifiers_gone RENAME TO identifiers`;
    }
    expect(failed.status).toBe(500);
    expect(failed.body.credits_refunded).toBe(15);
    const [{ n }] = await api.db.sql`SELECT count(*)::int AS n FROM idempotency_keys WHERE account_id = ${accountId}`;
    expect(n).toBe(0);

    const retry = await api.request(
      '/api/v1/advertiser/domains?name=Acme%20Outdoor%20GmbH',
      withKey(key, idempotencyKey),
    );
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(retry.body.credits_charged).toBe(15);
    expect(await api.balanceOf(accountId)).toBe(85);
    expect(await api.ledgerSum(accountId)).toBe(85);
  });

  it('402 is not stored: after a top-up the retry with the same key runs and pays', async () => {
    const { key, accountId } = await api.newKey(10);
    const idempotencyKey = randomUUID();
    const poor = await api.request(
      '/api/v1/advertiser/domains?name=Acme%20Outdoor%20GmbH',
      withKey(key, idempotencyKey),
    );
    expect(poor.status).toBe(402);
    await addCredits(api.db.sql, accountId, 100, `idem-topup-${accountId}`);
    const retry = await api.request(
      '/api/v1/advertiser/domains?name=Acme%20Outdoor%20GmbH',
      withKey(key, idempotencyKey),
    );
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await api.balanceOf(accountId)).toBe(95);
  });

  it('a malformed Idempotency-Key is 400 invalid_idempotency_key, free; parameters are checked first', async () => {
    const { key, accountId } = await api.newKey(50);
    for (const bad of ['', 'has space', 'x'.repeat(256), 'tab\there', 'ümlaut', 'a, b']) {
      const response = await api.request(SUMMARY, { key, headers: { 'Idempotency-Key': bad } });
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(response.body, JSON.stringify(bad)).toEqual({
        error: 'invalid_idempotency_key',
        message: expect.stringContaining('1 to 255 visible ASCII'),
      });
      expect(response.headers.get('x-credits-charged')).toBe('0');
      expect(response.headers.get('x-credits-remaining')).toBe('50');
    }
    // 255 visible ASCII characters are a valid key.
    expect((await api.request(SUMMARY, withKey(key, `${'!~'.repeat(127)}k`))).status).toBe(200);
    // The query parameters come first, then the header.
    const both = await api.request('/api/v1/advertiser?name=', { key, headers: { 'Idempotency-Key': 'has space' } });
    expect(both.body.error).toBe('missing_name');
    expect(await api.balanceOf(accountId)).toBe(47);
  });

  it('a revoked API key with an Idempotency-Key is 401 and claims nothing', async () => {
    const { key, accountId } = await api.newKey(50);
    await api.db.sql`UPDATE api_keys SET revoked_at = now() WHERE account_id = ${accountId}`;
    const response = await api.request(SUMMARY, withKey(key, 'revoked-key-claim'));
    expect(response.status).toBe(401);
    expect(response.headers.get('x-credits-charged')).toBeNull();
    const [{ n }] = await api.db
      .sql`SELECT count(*)::int AS n FROM idempotency_keys WHERE idempotency_key = 'revoked-key-claim'`;
    expect(n).toBe(0);
  });

  it('the free account endpoint ignores the header, even a malformed one', async () => {
    const { key } = await api.newKey(42);
    for (const value of ['same-key', 'same-key', 'has space']) {
      const response = await api.request('/api/v1/account', { key, headers: { 'Idempotency-Key': value } });
      expect(response.status).toBe(200);
      expect(response.headers.get('idempotent-replayed')).toBeNull();
    }
  });

  it('a claim whose request never finished is taken over after ' +
    'a minute and runs on its charge, never paying twice', async () => {
    const { key, accountId, keyId } = await api.newKey(100);
    const idempotencyKey = randomUUID();
    // A request that claimed the key and paid, then the service stopped before it answered.
    const paid = await debit(api.db.sql, {
      keyHash: (await api.db.sql`SELECT key_hash FROM api_keys WHERE id = ${keyId}`)[0].key_hash,
      price: 3,
      endpoint: 'getAdvertiserSummary',
      requestId: 'crashed-request',
    });
    expect(paid.outcome).toBe('debited');
    await api.db.sql`
      INSERT INTO idempotency_keys (account_id, idempotency_key, operation, query, state, request_id, charge_id,
        created_at, claimed_at)
      VALUES (${accountId}, ${idempotencyKey}, 'getAdvertiserSummary', 'name=Acme+Outdoor+GmbH', 'running',
        'crashed-request',
              ${paid.outcome === 'debited' ? paid.chargeId : null}, ${NOW}, ${NOW})`;

    // Within the minute the retry waits for the first request, at most 10 seconds, then answers 503, free.
    const started = performance.now();
    const busy = await api.request(SUMMARY, withKey(key, idempotencyKey));
    const waited = performance.now() - started;
    expect(busy.status).toBe(503);
    expect(busy.body).toEqual({
      error: 'unavailable',
      message: expect.stringContaining('still running'),
      credits_refunded: 0,
    });
    expect(busy.headers.get('retry-after')).toBe('5');
    expect(waited).toBeGreaterThanOrEqual(WAIT_FOR_FIRST_REQUEST_MS - 50);
    expect(waited).toBeLessThan(WAIT_FOR_FIRST_REQUEST_MS + 5_000);

    clock = new Date(NOW.getTime() + CLAIM_ABANDONED_AFTER_MS + 1000);
    try {
      const taken = await api.request(SUMMARY, withKey(key, idempotencyKey));
      expect(taken.status).toBe(200);
      expect(taken.body.credits_charged).toBe(3);
      expect(taken.headers.get('x-credits-charged')).toBe('3');
      expect(taken.headers.get('x-credits-remaining')).toBe('97');
      const replay = await api.request(SUMMARY, withKey(key, idempotencyKey));
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.text).toBe(taken.text);
      expect(await charges(accountId)).toEqual([
        { amount: -3, endpoint: 'getAdvertiserSummary', request_id: 'crashed-request' },
      ]);
      expect(await api.balanceOf(accountId)).toBe(97);
    } finally {
      clock = NOW;
    }
  }, 30_000);
});
