import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import createClient, { type Client } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { components, paths } from '../../generated/api-types.ts';
import type { TestApi } from '../support/api.ts';
import { validateResponse } from '../support/contract.ts';
import { createFixtureApi } from '../support/fixture.ts';

/**
 * The typed client a customer gets from the contract alone: types from generated/api-types.ts
 * (openapi-typescript) and openapi-fetch, nothing else of this code base. It calls every
 * operation over HTTP against the service listening on a real port; every response is also
 * validated against openapi.yaml. The `expectTypeOf` lines and the `@ts-expect-error` lines are
 * checked by `npm run typecheck`: the client's types must say what the contract says.
 */
type Schemas = components['schemas'];
type ErrorBody =
  | Schemas['NameParameterError']
  | Schemas['DomainParameterError']
  | Schemas['UnauthorizedError']
  | Schemas['InsufficientCreditsError']
  | Schemas['DailyCapReachedError']
  | Schemas['NotFoundError']
  | Schemas['MethodNotAllowedError']
  | Schemas['NotAcceptableError']
  | Schemas['IdempotencyKeyReusedError']
  | Schemas['RateLimitedError']
  | Schemas['UriTooLongError']
  | Schemas['HeadersTooLargeError']
  | Schemas['InternalError']
  | Schemas['UnavailableError'];

const validatingFetch = async (request: Request): Promise<Response> => {
  const response = await fetch(request);
  await validateResponse(request.method, request.url, response.clone());
  return response;
};

describe('TypeScript client generated from openapi.yaml (openapi-typescript + openapi-fetch)', () => {
  let api: TestApi;
  let server: ServerType;
  let baseUrl: string;
  let client: Client<paths, 'application/json'>;
  let clientFor: (headers: Record<string, string>) => Client<paths, 'application/json'>;

  beforeAll(async () => {
    let key: string;
    ({ api, key } = await createFixtureApi());
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve(info.port),
      );
    });
    baseUrl = `http://127.0.0.1:${port}`;
    clientFor = (headers) => createClient<paths, 'application/json'>({ baseUrl, fetch: validatingFetch, headers });
    client = clientFor({ Authorization: `Bearer ${key}` });
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await api.close();
  });

  it('calls every operation and gets the typed body of each', async () => {
    const summary = await client.GET('/api/v1/advertiser', { params: { query: { name: 'Acme Outdoor GmbH' } } });
    expectTypeOf(summary.data).toEqualTypeOf<Schemas['AdvertiserSummary'] | undefined>();
    expect(summary.response.status).toBe(200);
    expect(summary.data).toMatchObject({
      advertiser_ids: ['AR100', 'AR200'],
      advertiser_type: 'direct',
      credits_charged: 3,
    });

    const domain = await client.GET('/api/v1/domain', {
      params: { query: { domain: 'https://www.acme-outdoor.com/tents' } },
    });
    expectTypeOf(domain.data).toEqualTypeOf<Schemas['DomainSummary'] | undefined>();
    expect(domain.data).toMatchObject({ domain: 'acme-outdoor.com', has_data: true, credits_charged: 3 });

    const history = await client.GET('/api/v1/advertiser/history', {
      params: { query: { name: 'Clickwave Media Ltd' } },
    });
    expectTypeOf(history.data).toEqualTypeOf<Schemas['AdvertiserHistory'] | undefined>();
    expect(history.data?.months.find((month) => month.month === '2026-09')).toEqual({
      month: '2026-09',
      creatives: 2,
      domains: 2,
    });

    const landing = await client.GET('/api/v1/advertiser/domains', {
      params: { query: { name: 'Acme Outdoor GmbH' } },
    });
    expectTypeOf(landing.data).toEqualTypeOf<Schemas['AdvertiserLandingDomains'] | undefined>();
    expect(landing.data).toMatchObject({ landing_domain_count: 2, truncated: false, credits_charged: 15 });

    const brandBid = await client.GET('/api/v1/brandbid', { params: { query: { domain: 'acme-outdoor.com' } } });
    expectTypeOf(brandBid.data).toEqualTypeOf<Schemas['BrandBidReport'] | undefined>();
    expectTypeOf<NonNullable<typeof brandBid.data>['advertisers'][number]['profile']>().toEqualTypeOf<
      'single_domain' | 'few_domains' | 'multi_domain_intermediary'
    >();
    expect(brandBid.data?.advertisers.map((row) => row.advertiser_id)).toEqual(['AR200', 'AR100', 'AR300']);

    const account = await client.GET('/api/v1/account');
    expectTypeOf(account.data).toEqualTypeOf<Schemas['Account'] | undefined>();
    expect(account.data?.balance).toBe(1000 - 3 - 3 - 9 - 15 - 60);
    expect(account.response.headers.get('x-credits-charged')).toBe('0');
  });

  it('the x-api-key header works like the bearer header', async () => {
    const { key } = await api.newKey(10);
    const { data, response } = await clientFor({ 'x-api-key': key }).GET('/api/v1/account');
    expect(response.status).toBe(200);
    expect(data).toEqual({ key_prefix: key.slice(0, 12), balance: 10 });
  });

  it('404: a typed not_found error that was charged', async () => {
    const { data, error, response } = await client.GET('/api/v1/brandbid', {
      params: { query: { domain: 'never-heard-of.com' } },
    });
    expectTypeOf(error).toEqualTypeOf<Exclude<ErrorBody, Schemas['NameParameterError']> | undefined>();
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ error: 'not_found', credits_charged: 60 });
    expect(response.headers.get('x-credits-charged')).toBe('60');
  });

  it('402: a typed insufficient_credits error, free', async () => {
    const { key, accountId } = await api.newKey(14);
    const { error, response } = await clientFor({ Authorization: `Bearer ${key}` }).GET('/api/v1/advertiser/domains', {
      params: { query: { name: 'Acme Outdoor GmbH' } },
    });
    expect(response.status).toBe(402);
    expect(error).toEqual({
      error: 'insufficient_credits',
      message: 'This call costs 15 credits and the balance is 14.',
      required: 15,
      balance: 14,
    });
    expect(response.headers.get('x-credits-charged')).toBe('0');
    expect(await api.balanceOf(accountId)).toBe(14);
  });

  it('400 and 401: typed errors, free', async () => {
    const invalid = await client.GET('/api/v1/domain', { params: { query: { domain: 'localhost' } } });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error).toMatchObject({ error: 'invalid_domain' });
    const blank = await client.GET('/api/v1/advertiser', { params: { query: { name: ' ' } } });
    expect(blank.error).toMatchObject({ error: 'missing_name' });
    const anonymous = await clientFor({}).GET('/api/v1/advertiser/history', {
      params: { query: { name: 'Acme Outdoor GmbH' } },
    });
    expect(anonymous.response.status).toBe(401);
    expect(anonymous.response.headers.get('www-authenticate')).toBe('Bearer');
    expect(anonymous.error).toMatchObject({ error: 'unauthorized' });
  });

  it('the operations endpoints answer without a key: health, readiness, metrics as text', async () => {
    const anonymous = clientFor({});
    const health = await anonymous.GET('/healthz');
    expectTypeOf(health.data).toEqualTypeOf<Schemas['Health'] | undefined>();
    expect(health.data).toEqual({ status: 'ok' });
    const ready = await anonymous.GET('/readyz');
    expectTypeOf(ready.data).toEqualTypeOf<Schemas['Readiness'] | undefined>();
    expect(ready.data).toEqual({ status: 'ready' });
    const metrics = await anonymous.GET('/metrics', { parseAs: 'text' });
    expect(metrics.response.status).toBe(200);
    expect(metrics.data).toMatch(/^alk_http_requests_total\{operation="getReadiness",status="200"\} 1$/m);
  });

  it('the types refuse what the contract does not allow', () => {
    const misuses = () => [
      // @ts-expect-error `name` is required
      client.GET('/api/v1/advertiser', { params: { query: {} } }),
      // @ts-expect-error no such path in the contract
      client.GET('/api/v1/advertisers'),
      // @ts-expect-error the contract has no POST
      client.POST('/api/v1/account'),
    ];
    expect(typeof misuses).toBe('function');
  });
});
