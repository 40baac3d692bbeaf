import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { loadConfig, projectRoot } from '../../src/config.ts';
import { addCredits, createAccount, createApiKey } from '../../src/data/accounts.ts';
import { connect } from '../../src/data/client.ts';
import { CODINGS } from '../../src/http/compression.ts';
import { ingestObservations } from '../../src/ingest/index.ts';
import { ensureDatabase, openBenchServer } from './database.ts';
import { cpuSeconds, startBenchService } from './service.ts';

/**
 * `npm run bench:compression`: what compression (docs/product-rules.md R16.9) saves on the wire and
 * costs the service. For each answer (a brand-bid report of 100 advertisers in JSON and CSV, the
 * landing domains of an advertiser with 100 domains, the account's small answer, the contract, the
 * docs' script) and each
 * coding (none, then each this Node has), it sends the same request `REQUESTS` times, one at a
 * time on one kept-alive connection, and reports the bytes on the wire and the service process's
 * CPU per answer, read from /proc. Writes bench/compression.json, and the table to
 * bench/compression.md, which docs/benchmarks.md shows.
 */

const REQUESTS = Number(process.env.BENCH_COMPRESSION_REQUESTS ?? 400);
const BRAND = 'bench-brand.com';
const today = new Date('2026-11-20T00:00:00Z');

const observations = [
  ...Array.from({ length: 100 }, (_, i) => ({
    creative_id: `b${i}`,
    advertiser_id: `AR7${String(i).padStart(4, '0')}`,
    advertiser_name: `Benchmark Advertiser Number ${i} GmbH`,
    country: 'DE',
    landing_url: `https://${BRAND}/offer/${i}`,
    seen_on: '2026-11-10',
  })),
  ...Array.from({ length: 100 }, (_, i) => ({
    creative_id: `d${i}`,
    advertiser_id: 'AR80000',
    advertiser_name: 'Benchmark Network Ltd',
    country: 'GB',
    landing_url: `https://landing-${i}-network.com/`,
    seen_on: '2026-11-11',
  })),
];

async function main() {
  const config = loadConfig();
  const server = await openBenchServer(config.databaseUrl, (line) => console.error(line));
  const name = 'alk_bench_compression';
  const admin = postgres(server.urlOf('postgres'), { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name}`);
  await admin.end();
  const url = await ensureDatabase(server, name);
  const sql = connect(url, 2);
  await ingestObservations(sql, observations, { today });
  const account = await createAccount(sql);
  const { key } = await createApiKey(sql, account.id);
  await addCredits(sql, account.id, 10_000_000, 'bench-compression');
  await sql.end();

  const logFile = path.join(os.tmpdir(), `alk-bench-compression-${process.pid}.log`);
  const service = await startBenchService(url, logFile);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const request = (target: string, headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const sent = http.get(`${service.url}${target}`, { agent, headers }, (response) => {
        let bytes = 0;
        response.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
        });
        response.on('end', () =>
          response.statusCode === 200 ? resolve(bytes) : reject(new Error(`${target}: ${response.statusCode}`)),
        );
      });
      sent.on('error', reject);
    });

  const answers: [string, string, Record<string, string>][] = [
    ['brand-bid JSON (100 advertisers)', `/api/v1/brandbid?domain=${BRAND}`, { authorization: `Bearer ${key}` }],
    ['brand-bid CSV', `/api/v1/brandbid?domain=${BRAND}`, { authorization: `Bearer ${key}`, accept: 'text/csv' }],
    [
      'landing domains JSON (100)',
      `/api/v1/advertiser/domains?name=${encodeURIComponent('Benchmark Network Ltd')}`,
      { authorization: `Bearer ${key}` },
    ],
    // Under the threshold: what asking for a coding costs an answer that goes uncompressed.
    ['account JSON (under 1 KiB)', '/api/v1/account', { authorization: `Bearer ${key}` }],
    ['/openapi.json', '/openapi.json', {}],
    ['/docs script', '/docs/scalar-api-reference.js', {}],
  ];
  const rows: { answer: string; coding: string; bytes: number; cpuMicros: number }[] = [];
  try {
    for (const [label, target, headers] of answers) {
      for (const coding of ['identity', ...CODINGS]) {
        const asked = coding === 'identity' ? headers : { ...headers, 'accept-encoding': coding };
        const count = target.startsWith('/docs') ? Math.max(20, REQUESTS / 10) : REQUESTS;
        for (let i = 0; i < 20; i++) await request(target, asked); // warm-up (and the asset's one compression)
        const before = cpuSeconds(service.pid)!;
        let bytes = 0;
        for (let i = 0; i < count; i++) bytes = await request(target, asked);
        const cpuMicros = ((cpuSeconds(service.pid)! - before) / count) * 1e6;
        rows.push({ answer: label, coding, bytes, cpuMicros: Math.round(cpuMicros) });
      }
    }
  } finally {
    agent.destroy();
    await service.stop();
    await server.close();
    fs.rmSync(logFile, { force: true });
  }

  const lines = [
    `Compression: ${REQUESTS} answers per cell, one at a time (Node ${process.version}; service CPU from /proc).`,
    'One call at a time, an answer costs the service several hundred µs whatever its coding (the',
    "process wakes for each), so a difference under about 100 µs between codings is this machine's noise.",
    '',
    '| answer | coding | bytes on the wire | of identity | service CPU per answer, µs | added µs |',
    '|---|---|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const identity = rows.find((other) => other.answer === row.answer && other.coding === 'identity')!;
    const share = ((100 * row.bytes) / identity.bytes).toFixed(1);
    const added = row.cpuMicros - identity.cpuMicros;
    const bytes = row.bytes.toLocaleString('en-US');
    lines.push(`| ${row.answer} | ${row.coding} | ${bytes} | ${share} % | ${row.cpuMicros} | ${added} |`);
  }
  console.log(lines.join('\n'));
  fs.writeFileSync(path.join(projectRoot, 'bench', 'compression.md'), `${lines.join('\n')}\n`);
  fs.writeFileSync(
    path.join(projectRoot, 'bench', 'compression.json'),
    `${JSON.stringify({ node: process.version, requests: REQUESTS, rows }, null, 2)}\n`,
  );
}

await main();
