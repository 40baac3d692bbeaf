/**
 * What a tool call of the MCP endpoint costs against the same HTTP call, in one run
 * (docs/mcp.md): `npm run bench:mcp [-- --calls 400 --concurrency 8 --transcript]`.
 *
 * One service (the app on the fixture dataset in a fresh database, listening on a port)
 * answers, alternately, `calls` HTTP calls `GET /api/v1/advertiser?name=…` (fetch, keep-alive)
 * and `calls` tool calls `getAdvertiserSummary` of the same name through the MCP SDK's own client
 * (Client + StreamableHTTPClientTransport), each from `concurrency` loops, after a warm-up. It
 * reports calls per second, the latency percentiles, the process's CPU time per call (client and
 * service share the process, so this is the whole cost on this machine) and the credits each way
 * charged, which must be the same. `--transcript` prints the JSON-RPC of a tool listing and of one
 * billed call, as docs/mcp.md shows them.
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { type ServerType, serve } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Command } from 'commander';
import { addCredits, createAccount, createApiKey } from '../../src/data/accounts.ts';
import { migrate } from '../../src/data/migrate.ts';
import { testApp } from '../../test/support/app.ts';
import { loadFixture } from '../../test/support/fixture.ts';
import { openBenchServer, openPool } from './database.ts';

const NAME = 'Acme Outdoor GmbH';

interface Measured {
  label: string;
  calls: number;
  seconds: number;
  latencies: number[];
  cpuMs: number;
  charged: number;
}

const options = new Command()
  .option('--calls <n>', 'calls each way', '400')
  .option('--concurrency <n>', 'loops each way', '8')
  .option('--transcript', 'print the JSON-RPC of a tool listing and one billed call')
  .parse()
  .opts<{ calls: string; concurrency: string; transcript?: boolean }>();
const calls = Number(options.calls);
const concurrency = Number(options.concurrency);

// A fresh database on DATABASE_URL's server (default: the PostgreSQL on 127.0.0.1:5432).
const databases = await openBenchServer(
  process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
  () => {},
);
const admin = openPool(databases.urlOf('postgres'), 1);
await admin.unsafe('DROP DATABASE IF EXISTS alk_bench_mcp');
await admin.unsafe(`CREATE DATABASE alk_bench_mcp TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
await admin.end();
const url = databases.urlOf('alk_bench_mcp');
await migrate(url);
const sql = openPool(url, 10);
await loadFixture(sql);
// The per-key rate limit off: both ways would hit it alike, and the run makes more calls than it allows.
const app = testApp({ sql, rateLimit: { requests: 0, windowSeconds: 60 } });
const server = await new Promise<{ server: ServerType; port: number }>((resolve) => {
  const listening = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
    resolve({ server: listening, port: info.port }),
  );
});
const base = `http://127.0.0.1:${server.port}`;
const accountId = (await createAccount(sql)).id;
const { key } = await createApiKey(sql, accountId);
await addCredits(sql, accountId, 10_000_000, 'bench-mcp');
const balanceOf = async () =>
  (await sql<{ balance: number }[]>`SELECT balance FROM accounts WHERE id = ${accountId}`)[0].balance;

async function measure(label: string, call: () => Promise<void>): Promise<Measured> {
  for (let i = 0; i < 20; i++) await call();
  const before = await balanceOf();
  const latencies: number[] = [];
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < calls) {
        const at = performance.now();
        await call();
        latencies.push(performance.now() - at);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const charged = before - (await balanceOf());
  return { label, calls, seconds, latencies, cpuMs: (used.user + used.system) / 1000, charged };
}

const httpCall = async () => {
  const response = await fetch(`${base}/api/v1/advertiser?name=${encodeURIComponent(NAME)}`, {
    headers: { Authorization: `Bearer ${key}` },
  });
  if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
  await response.arrayBuffer();
};

const client = new Client({ name: 'bench-mcp', version: '1.0.0' });
await client.connect(
  new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  }),
);
const mcpCall = async () => {
  const result = await client.callTool({ name: 'getAdvertiserSummary', arguments: { name: NAME } });
  if (result.isError) throw new Error(JSON.stringify(result.content));
};

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
const results: Measured[] = [];
// Alternated, twice each, so that neither way has the warmer process.
for (const round of [1, 2]) {
  results.push(await measure(`HTTP (round ${round})`, httpCall));
  results.push(await measure(`MCP tool call (round ${round})`, mcpCall));
}
console.log(`${calls} calls each way per round, ${concurrency} loops, getAdvertiserSummary (3 credits)`);
console.log('way                      calls/s   p50 ms   p95 ms   CPU ms/call   credits charged');
for (const r of results) {
  const sorted = [...r.latencies].sort((a, b) => a - b);
  console.log(
    [
      r.label.padEnd(24),
      (r.calls / r.seconds).toFixed(0).padStart(7),
      percentile(sorted, 0.5).toFixed(2).padStart(8),
      percentile(sorted, 0.95).toFixed(2).padStart(8),
      (r.cpuMs / r.calls).toFixed(3).padStart(13),
      String(r.charged).padStart(17),
    ].join(' '),
  );
}
const cpuOf = (prefix: string) =>
  results.filter((r) => r.label.startsWith(prefix)).reduce((sum, r) => sum + r.cpuMs / r.calls, 0) / 2;
const p50Of = (prefix: string) =>
  results
    .filter((r) => r.label.startsWith(prefix))
    .map((r) =>
      percentile(
        [...r.latencies].sort((a, b) => a - b),
        0.5,
      ),
    )
    .reduce((sum, value) => sum + value, 0) / 2;
const cpuRatio = (cpuOf('MCP') / cpuOf('HTTP')).toFixed(2);
console.log(`MCP / HTTP: CPU per call ${cpuRatio}x, p50 ${(p50Of('MCP') / p50Of('HTTP')).toFixed(2)}x`);

if (options.transcript) {
  const post = async (body: unknown) => {
    const response = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-06-18',
      },
      body: JSON.stringify(body),
    });
    console.log(`\n--> POST /mcp ${JSON.stringify(body)}`);
    console.log(`<-- ${response.status} ${response.headers.get('content-type')}`);
    console.log(JSON.stringify(await response.json(), null, 2));
  };
  await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  await post({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'getAdvertiserSummary', arguments: { name: NAME }, _meta: { idempotencyKey: 'transcript-1' } },
  });
}

await client.close();
await new Promise<void>((resolve) => server.server.close(() => resolve()));
await sql.end();
await databases.close();
