// @module-tag runtime
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../../src/contract/api-key.ts';
import { createApiKey } from '../../src/data/accounts.ts';
import { revokeKeyOf, setDailyCap } from '../../src/data/api-keys.ts';
import { refund } from '../../src/data/billing.ts';
import { ingestObservations } from '../../src/ingest/index.ts';
import { DEMO } from '../../src/synthetic/generator.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { createFixtureApi, NOW } from '../support/fixture.ts';

/** A valid argument set for every tool, on the fixture's data, and what the HTTP call costs. */
const CALLS: Record<string, { args: Record<string, string | number>; price: number }> = {
  getAdvertiserSummary: { args: { name: 'Acme Outdoor GmbH' }, price: 3 },
  getDomainSummary: { args: { domain: 'https://www.acme-outdoor.com/tents' }, price: 3 },
  getAdvertiserHistory: { args: { name: 'Acme Outdoor GmbH' }, price: 9 },
  getAdvertiserLandingDomains: { args: { name: 'Acme Outdoor GmbH' }, price: 15 },
  getBrandBidReport: { args: { domain: 'acme-outdoor.com' }, price: 60 },
  searchAdvertisers: { args: { q: 'acme' }, price: 1 },
  getAccount: { args: {}, price: 0 },
  getAccountUsage: { args: {}, price: 0 },
  getAccountLedger: { args: { limit: 5 }, price: 0 },
  listWatches: { args: { limit: 5 }, price: 0 },
};

type Result = CallToolResult & { structuredContent: Record<string, any> };

describe('the MCP endpoint: the API as tools over Streamable HTTP, same key, same money', () => {
  let api: TestApi;
  let server: ServerType;
  let url: URL;
  const clients: Client[] = [];

  /** The SDK's own client, connected to the listening service with `key` as its Bearer token. */
  async function connect(key: string): Promise<Client> {
    const client = new Client({ name: 'mcp-test', version: '1.0.0' });
    const headers = { Authorization: `Bearer ${key}` };
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    clients.push(client);
    return client;
  }
  const call = async (client: Client, name: string, args: Record<string, unknown>, meta?: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args, ...(meta && { _meta: meta }) })) as Result;

  /** A tool call as its JSON text, past the client's own checks of the arguments. */
  async function rawCall(key: string, params: string): Promise<Result> {
    const answer = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": ${params}}`,
    });
    return ((await answer.json()) as { result: Result }).result;
  }

  beforeAll(async () => {
    // An intermediary with 502 landing domains, more than an answer lists.
    const wide = Array.from({ length: 502 }, (_, i) => ({
      creative_id: `wide-${i}`,
      advertiser_id: 'AR900',
      advertiser_name: 'Wide Reach Media',
      country: 'NL',
      landing_url: `https://brand-${i}.com/`,
      seen_on: '2026-11-01',
    }));
    ({ api } = await createFixtureApi((sql) => ingestObservations(sql, wide, { today: NOW })));
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve(info.port),
      );
    });
    url = new URL(`http://127.0.0.1:${port}/mcp`);
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await api.close();
  });

  it('lists one tool per operation a key calls, each with its price, input and output schema', async () => {
    const { key } = await api.newKey(100);
    const { tools } = await (await connect(key)).listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(Object.keys(CALLS).sort());
    for (const tool of tools) {
      const { price } = CALLS[tool.name];
      expect(tool.description).toContain(price === 0 ? 'Price: free (0 credits).' : `Price: ${price} credit`);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
    }
  });

  it('calls every tool: the operation JSON as structured content, billed at the HTTP price', async () => {
    const { key, accountId } = await api.newKey(200);
    const client = await connect(key);
    let balance = 200;
    for (const [name, { args, price }] of Object.entries(CALLS)) {
      const result = await call(client, name, args);
      balance -= price;
      expect([name, result.isError ?? false]).toEqual([name, false]);
      const http = await api.request(`${toolPath(name)}?${new URLSearchParams(stringArgs(args))}`, {
        key: (await api.newKey(200)).key,
      });
      // The same answer as the HTTP call but for the balance, which is the MCP caller's own.
      const { credits_remaining, ...body } = result.structuredContent;
      const { credits_remaining: _, ...httpBody } = http.body as Record<string, unknown>;
      if (!name.startsWith('getAccount')) expect([name, body]).toEqual([name, httpBody]);
      if (credits_remaining !== undefined) expect([name, credits_remaining]).toEqual([name, balance]);
      expect(result.content[0]).toMatchObject({ type: 'text' });
      expect((result.content[0] as { text: string }).text).toContain(`${price} credit`);
    }
    expect(await api.balanceOf(accountId)).toBe(200 - 91);
    expect(await api.ledgerSum(accountId)).toBe(200 - 91);
  });

  it('a truncated answer says so in its summary, as the API does', async () => {
    const { key } = await api.newKey(100);
    const result = await call(await connect(key), 'getAdvertiserLandingDomains', { name: 'Wide Reach Media' });
    expect(result.structuredContent).toMatchObject({ landing_domain_count: 502, truncated: true });
    expect(result.structuredContent.landing_domains).toHaveLength(500);
    expect((result.content[0] as { text: string }).text).toContain('truncated');
  });

  it("bad input is the API's 400 as a tool error, free", async () => {
    const { key, accountId } = await api.newKey(100);
    const client = await connect(key);
    const result = await call(client, 'getDomainSummary', { domain: 'not a domain' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'invalid_domain', status: 400, credits_charged: 0 });
    const missing = await call(client, 'getAdvertiserSummary', {});
    expect(missing.structuredContent).toMatchObject({ error: 'missing_name', credits_charged: 0 });
    const unknown = await call(client, 'getAdvertiserSummary', { name: 'Acme', nam: 'x' });
    expect(unknown.structuredContent).toMatchObject({ error: 'invalid_arguments', credits_charged: 0 });
    await expect(call(client, 'getNothing', {})).rejects.toThrow(/Unknown tool: getNothing/);
    expect(await api.balanceOf(accountId)).toBe(100);
  });

  it(
    "every argument the service accepts passes the tool's own input schema, " + 'full URLs as domain included',
    async () => {
      const { key } = await api.newKey(0);
      const { tools } = await (await connect(key)).listTools();
      const ajv = new Ajv2020({ strict: false });
      addFormats.default(ajv);
      const accepted = [
        ...Object.entries(CALLS),
        ['getBrandBidReport', { args: { domain: 'https://www.Acme-Outdoor.com/shop?utm_source=ads' } }],
      ];
      for (const [name, { args }] of accepted as [string, { args: Record<string, unknown> }][]) {
        const validate = ajv.compile(tools.find((tool) => tool.name === name)!.inputSchema);
        expect(validate(args), `${name} ${JSON.stringify(validate.errors)}`).toBe(true);
      }
    },
  );

  it(
    'an argument of another JSON type, a name no tool declares or a _meta.idempotencyKey not a string: ' +
      'invalid_arguments, free',
    async () => {
      const { key, accountId } = await api.newKey(100);
      const client = await connect(key);
      const refusals = [
        await call(client, 'getAdvertiserSummary', { name: 12345 }),
        await call(client, 'getAdvertiserSummary', { name: ['Acme Outdoor GmbH'] }),
        await call(client, 'getAccountLedger', { limit: '5' }),
        await call(client, 'getAccountLedger', { limit: 2.5 }),
        ...(await Promise.all(
          ['constructor', 'toString', 'hasOwnProperty', 'valueOf'].map((name) =>
            rawCall(
              key,
              `{"name": "getAdvertiserSummary", "arguments": {"name": "Acme Outdoor GmbH", "${name}": "x"}}`,
            ),
          ),
        )),
        await call(client, 'getAdvertiserSummary', { name: 'Acme Outdoor GmbH' }, { idempotencyKey: 12345 }),
        await call(client, 'getAdvertiserSummary', { name: 'Acme Outdoor GmbH' }, { idempotencyKey: null }),
      ];
      for (const refused of refusals) {
        expect(refused.isError).toBe(true);
        expect(refused.structuredContent).toMatchObject({ error: 'invalid_arguments', credits_charged: 0 });
      }
      expect(await api.balanceOf(accountId)).toBe(100);
    },
  );

  it('no credits: insufficient_credits as a tool error, nothing charged', async () => {
    const { key, accountId } = await api.newKey(2);
    const result = await call(await connect(key), 'getAdvertiserSummary', { name: 'Acme Outdoor GmbH' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ error: 'insufficient_credits', status: 402, credits_charged: 0 });
    expect(await api.balanceOf(accountId)).toBe(2);
  });

  it('a revoked, forged or missing key: the endpoint answers 401 before any work, whatever the batch', async () => {
    const { key, accountId, keyId } = await api.newKey(100);
    const client = await connect(key);
    expect((await call(client, 'getAccount', {})).isError ?? false).toBe(false);
    await revokeKeyOf(api.db.sql, accountId, keyId);
    await expect(call(client, 'getAdvertiserSummary', { name: 'Acme Outdoor GmbH' })).rejects.toThrow(/unauthorized/);
    expect(await api.balanceOf(accountId)).toBe(100);
    // A forged key of the right form asks for the tools 100 times in one batch: one small 401.
    const batch = Array.from({ length: 100 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }));
    const forged = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${generateApiKey().key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify(batch),
    });
    expect(forged.status).toBe(401);
    expect((await forged.text()).length).toBeLessThan(1_000);
    const anonymous = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect(await anonymous.json()).toMatchObject({ error: 'unauthorized' });
  });

  it("a test key: the sandbox's data, free, as over HTTP", async () => {
    const { accountId } = await api.newKey(50);
    const { key } = await createApiKey(api.db.sql, accountId, { test: true });
    const name = DEMO.sharedName;
    const result = await call(await connect(key), 'getAdvertiserSummary', { name });
    expect(result.isError ?? false).toBe(false);
    expect(result.structuredContent).toMatchObject({ advertiser: name, credits_charged: 0, credits_remaining: 50 });
    expect((result.content[0] as { text: string }).text).toContain('sandbox');
    expect(await api.balanceOf(accountId)).toBe(50);
  });

  it("the key's daily cap counts tool calls and HTTP calls together and refuses like over HTTP", async () => {
    const { key, accountId, keyId } = await api.newKey(100);
    await setDailyCap(api.db.sql, accountId, keyId, 6);
    const client = await connect(key);
    expect((await call(client, 'getAdvertiserSummary', { name: 'Acme Outdoor GmbH' })).isError ?? false).toBe(false);
    expect((await api.request('/api/v1/domain?domain=acme-outdoor.com', { key })).status).toBe(200);
    const capped = await call(client, 'searchAdvertisers', { q: 'acme' });
    expect(capped.structuredContent).toMatchObject({ error: 'daily_cap_reached', status: 403, credits_charged: 0 });
    expect(await api.balanceOf(accountId)).toBe(94);
  });

  it('an Idempotency-Key in _meta: the retry replays the answer and pays nothing again', async () => {
    const { key, accountId } = await api.newKey(100);
    const client = await connect(key);
    const meta = { idempotencyKey: 'retry-1' };
    const first = await call(client, 'getAdvertiserSummary', { name: 'Acme Outdoor GmbH' }, meta);
    const again = await call(client, 'getAdvertiserSummary', { name: 'Acme Outdoor GmbH' }, meta);
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect((again.content[0] as { text: string }).text).toContain('replayed');
    expect(await api.balanceOf(accountId)).toBe(97);
    const other = await call(client, 'getAdvertiserSummary', { name: 'Other' }, meta);
    expect(other.structuredContent).toMatchObject({ error: 'idempotency_key_reused', status: 422 });
  });

  it('concurrent tool calls on one balance: exactly as many succeed as the balance pays for', async () => {
    const { key, accountId } = await api.newKey(30);
    const client = await connect(key);
    const results = await Promise.all(
      Array.from({ length: 25 }, () => call(client, 'getAdvertiserSummary', { name: 'Acme Outdoor GmbH' })),
    );
    const ok = results.filter((result) => !result.isError);
    const refused = results.filter((result) => result.structuredContent.error === 'insufficient_credits');
    expect([ok.length, refused.length]).toEqual([10, 15]);
    expect(await api.balanceOf(accountId)).toBe(0);
    expect(await api.ledgerSum(accountId)).toBe(0);
  });

  it("a tool call's charge is in the ledger with the channel mcp, an HTTP call's http, and in the usage", async () => {
    const { key, accountId } = await api.newKey(100);
    const client = await connect(key);
    await call(client, 'getAdvertiserSummary', { name: 'Acme Outdoor GmbH' });
    await api.request('/api/v1/domain?domain=acme-outdoor.com', { key });
    const ledger = await call(client, 'getAccountLedger', { limit: 2 });
    expect(ledger.structuredContent.entries.map((e: any) => [e.kind, e.operation, e.amount, e.channel])).toEqual([
      ['charge', 'getDomainSummary', -3, 'http'],
      ['charge', 'getAdvertiserSummary', -3, 'mcp'],
    ]);
    // The usage counts, of each operation's calls, those made as tool calls.
    // The day the database wrote the charges on (the app's own clock is the fixture's).
    const [{ today }] = await api.db.sql<
      { today: string }[]
    >`SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS today`;
    const usage = await call(client, 'getAccountUsage', { from: today, to: today });
    const operations = usage.structuredContent.days.at(-1).operations;
    expect(operations.filter((o: any) => o.operation.startsWith('get'))).toEqual([
      { operation: 'getAdvertiserSummary', calls: 1, refunded_calls: 0, credits: 3, mcp_calls: 1 },
      { operation: 'getDomainSummary', calls: 1, refunded_calls: 0, credits: 3, mcp_calls: 0 },
    ]);
    // A refund keeps its charge's channel: the service fails the call after it was charged.
    const [charge] = await api.db.sql<{ id: number }[]>`
      SELECT id FROM ledger WHERE account_id = ${accountId} AND endpoint = 'getAdvertiserSummary'`;
    await refund(api.db.sql, charge.id, 'refund-test-1');
    const [given] = await api.db.sql<{ channel: string }[]>`SELECT channel FROM ledger WHERE refund_of = ${charge.id}`;
    expect(given.channel).toBe('mcp');
  });

  it('GET and DELETE: 405, the endpoint is stateless and keeps no stream', async () => {
    const { key } = await api.newKey(10);
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(url, { method, headers: { authorization: `Bearer ${key}` } });
      expect([method, response.status, response.headers.get('allow')]).toEqual([method, 405, 'POST']);
    }
  });
});

function toolPath(name: string): string {
  const paths: Record<string, string> = {
    getAdvertiserSummary: '/api/v1/advertiser',
    getDomainSummary: '/api/v1/domain',
    getAdvertiserHistory: '/api/v1/advertiser/history',
    getAdvertiserLandingDomains: '/api/v1/advertiser/domains',
    getBrandBidReport: '/api/v1/brandbid',
    searchAdvertisers: '/api/v1/advertisers/search',
    getAccount: '/api/v1/account',
    getAccountUsage: '/api/v1/account/usage',
    getAccountLedger: '/api/v1/account/ledger',
    listWatches: '/api/v1/watches',
  };
  return paths[name];
}

function stringArgs(args: Record<string, string | number>): Record<string, string> {
  return Object.fromEntries(Object.entries(args).map(([name, value]) => [name, String(value)]));
}

describe('the MCP endpoint under the per-key rate limit', () => {
  it('tool calls and HTTP calls share one quota: over it, rate_limited as a tool error', async () => {
    const api = await createTestApi({ rateLimit: { requests: 3, windowSeconds: 60 } });
    const listening = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => listening.once('listening', () => resolve()));
    try {
      const { key } = await api.newKey(100);
      const url = new URL(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/mcp`);
      const client = new Client({ name: 'mcp-test', version: '1.0.0' });
      const headers = { Authorization: `Bearer ${key}` };
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
      expect((await api.request('/api/v1/account', { key })).status).toBe(200);
      const results = [];
      for (let i = 0; i < 3; i++)
        results.push((await client.callTool({ name: 'getAccount', arguments: {} })) as Result);
      expect(results.map((result) => result.structuredContent.error ?? 'ok')).toEqual(['ok', 'ok', 'rate_limited']);
      expect(results[2].structuredContent).toMatchObject({ status: 429, credits_charged: 0 });
      await client.close();
    } finally {
      await new Promise<void>((resolve) => listening.close(() => resolve()));
      await api.close();
    }
  });
});
