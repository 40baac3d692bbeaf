import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/contract/api-key.ts';
import { contractOperations } from '../../src/contract/operations.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { labelValues, sample } from '../support/metrics.ts';

/**
 * GET /metrics: Prometheus text format, with exact counts. Every test reads the metrics of its
 * own app (each app has its own registry), so the numbers below are all the app ever counted.
 */
describe('/metrics', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  /** Scrapes answered so far: a scrape is counted once it has answered, so it never sees itself. */
  let scrapes = 0;
  const scrapeResponse = async () => {
    const response = await api.request('/metrics');
    expect(response.status).toBe(200);
    scrapes++;
    return response;
  };
  const scrape = async () => (await scrapeResponse()).text;

  it('is the Prometheus text format, free and without a key, never cached', async () => {
    const response = await scrapeResponse();
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(response.headers.get('x-credits-charged')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.text).toMatch(/^# HELP alk_/m);
    expect(response.text).toContain('# TYPE alk_http_requests_total counter');
    expect(response.text).toContain('# TYPE alk_http_request_duration_seconds histogram');
    expect(response.text).toContain('# TYPE alk_credits_charged_total counter');
    expect(response.text).toContain('# TYPE alk_credits_refunded_total counter');
    // The process's own metrics.
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(response.text).toContain(`# TYPE ${name} `);
    }
  });

  it(
    'counts requests by operation and status, durations by ' + 'operation, and credits charged and refunded, exactly',
    async () => {
      const { key } = await api.newKey(100);
      const { key: poorKey } = await api.newKey(2);
      await api.request('/api/v1/account', { key }); // 200, free
      await api.request('/api/v1/advertiser?name=Nobody', { key }); // 404, charged 3
      await api.request('/api/v1/advertiser?name=Nobody%20Else', { key }); // 404, charged 3
      await api.request('/api/v1/brandbid?domain=never-seen.com', { key }); // 404, charged 60
      await api.request('/api/v1/advertiser?name=', { key }); // 400, free
      await api.request('/api/v1/advertiser?name=Nobody'); // 401, free
      await api.request('/api/v1/domain?domain=example.com', { key: poorKey }); // 402, free
      await api.request('/api/v1/domain', { method: 'POST', key }); // 405, free
      await api.request('/api/v1/nothing-here'); // 404, unknown path
      // 500: the lookup's table is gone after the debit; the 15 credits are refunded.
      await api.db.sql`ALTER TABLE identifiers RENAME TO identifiers_gone`;
      try {
        expect((await api.request('/api/v1/advertiser/domains?name=Acme', { key })).status).toBe(500);
      } finally {
        await api.db.sql`ALTER TABLE identifiers_gone RENAME TO identifiers`;
      }

      const earlierScrapes = scrapes;
      const text = await scrape();
      const requests = (operation: string, status: number) =>
        sample(text, `alk_http_requests_total{operation="${operation}",status="${status}"}`);
      expect(requests('getAccount', 200)).toBe(1);
      expect(requests('getAdvertiserSummary', 404)).toBe(2);
      expect(requests('getAdvertiserSummary', 400)).toBe(1);
      expect(requests('getAdvertiserSummary', 401)).toBe(1);
      expect(requests('getBrandBidReport', 404)).toBe(1);
      expect(requests('getDomainSummary', 402)).toBe(1);
      expect(requests('getDomainSummary', 405)).toBe(1);
      expect(requests('getAdvertiserLandingDomains', 500)).toBe(1);
      expect(requests('unmatched', 404)).toBe(1);
      expect(requests('getMetrics', 200)).toBe(earlierScrapes === 0 ? undefined : earlierScrapes);
      expect(sample(text, 'alk_http_request_duration_seconds_count{operation="getAdvertiserSummary"}')).toBe(4);
      expect(sample(text, 'alk_http_request_duration_seconds_bucket{le="+Inf",operation="getAdvertiserSummary"}')).toBe(
        4,
      );
      expect(sample(text, 'alk_http_request_duration_seconds_sum{operation="getAdvertiserSummary"}')).toBeGreaterThan(
        0,
      );

      const charged = (operation: string) => sample(text, `alk_credits_charged_total{operation="${operation}"}`);
      const refunded = (operation: string) => sample(text, `alk_credits_refunded_total{operation="${operation}"}`);
      expect(charged('getAdvertiserSummary')).toBe(6);
      expect(charged('getBrandBidReport')).toBe(60);
      expect(charged('getAdvertiserLandingDomains')).toBe(15);
      expect(refunded('getAdvertiserLandingDomains')).toBe(15);
      // Nothing was charged for free answers: no series for them at all.
      expect(charged('getAccount')).toBeUndefined();
      expect(charged('getDomainSummary')).toBeUndefined();
      expect(refunded('getAdvertiserSummary')).toBeUndefined();

      // The metrics agree with the ledger: charges minus refunds is what the ledger took.
      const [ledger] = await api.db.sql<{ charged: number; refunded: number }[]>`
      SELECT coalesce(-sum(amount) FILTER (WHERE kind = 'charge' AND endpoint <> 'test-setup'), 0)::bigint AS charged,
             coalesce(sum(amount) FILTER (WHERE kind = 'refund'), 0)::bigint AS refunded
      FROM ledger`;
      expect(ledger).toEqual({ charged: 6 + 60 + 15, refunded: 15 });
    },
  );

  it(
    'labels name operations by operationId or served ' + 'route, never by the URL: no key or query reaches them',
    async () => {
      const { key } = await api.newKey(100);
      await api.request(`/api/v1/advertiser?name=Nobody&api_key=${key}`, { key });
      await api.request(`/api/v1/${key}`);
      await api.request(`/${key}?key=${key}`);
      await api.request('/api/v1/account', { headers: { 'x-api-key': key } });
      const text = await scrape();
      expect(text).not.toContain(key);
      expect(text).not.toContain(key.slice(0, 12));
      expect(text).not.toContain(hashApiKey(key).toString('hex').slice(0, 16));
      const served = new Set([
        ...contractOperations.map((operation) => operation.operationId),
        '/docs',
        '/docs/scalar-api-reference.js',
        '/openapi.json',
        '/openapi.yaml',
        '/',
        'unmatched',
      ]);
      const operations = labelValues(text, 'operation');
      expect(operations.size).toBeGreaterThan(0);
      for (const operation of operations) expect(served, operation).toContain(operation);
    },
  );

  it(
    'database pool: its size, its open connections, and the ' +
      'queries in flight (a running query counts until it ends)',
    async () => {
      const before = await scrape();
      expect(sample(before, 'alk_db_pool_size')).toBe(10);
      expect(sample(before, 'alk_db_pool_open_connections')).toBeGreaterThanOrEqual(1);
      expect(sample(before, 'alk_db_queries_in_flight')).toBe(0);

      const sleeping = api.db.sql`SELECT pg_sleep(0.5)`.execute();
      const alsoSleeping = api.db.sql.begin((tx) => tx`SELECT pg_sleep(0.5)`);
      await new Promise((resolve) => setTimeout(resolve, 150));
      const during = await scrape();
      expect(sample(during, 'alk_db_queries_in_flight')).toBe(2);
      expect(sample(during, 'alk_db_pool_open_connections')).toBeGreaterThanOrEqual(2);
      await Promise.all([sleeping, alsoSleeping]);
      expect(sample(await scrape(), 'alk_db_queries_in_flight')).toBe(0);
      // A failed query ends too.
      await expect(api.db.sql`SELECT * FROM no_such_table`).rejects.toThrow();
      expect(sample(await scrape(), 'alk_db_queries_in_flight')).toBe(0);
    },
  );

  it('HEAD answers like GET without a body; other methods answer 405', async () => {
    const head = await api.request('/metrics', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const post = await api.request('/metrics', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
