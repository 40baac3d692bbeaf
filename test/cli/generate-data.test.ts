// @module-tag runtime
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPTS, scriptOf } from '../../scripts/quality/name-typos.ts';
import { runGenerateData } from '../../src/cli/generate-data.ts';
import { checkAggregates } from '../../src/ingest/index.ts';
import { DEMO } from '../../src/synthetic/generator.ts';
import { companionPath } from '../../src/synthetic/write-files.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { runCli, temporaryFolder } from './run-cli.ts';

const folder = temporaryFolder('alk-generate-data-');
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
  folder.remove();
});

async function generate(...argv: string[]) {
  let out = '';
  let err = '';
  const stderr = Object.assign(new (await import('node:stream')).PassThrough(), { isTTY: false });
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await runGenerateData(argv, { out: (text) => (out += text), err: stderr });
  return { code, out, err };
}

const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const lines = (text: string) => text.split('\n').slice(0, -1);

describe('npm run generate-data', () => {
  it('is deterministic: the same seed, size and day give the same bytes; another seed does not', async () => {
    const run = async (name: string, seed: string) => {
      const out = folder.file(name);
      const result = await generate(
        '--observations',
        '20000',
        '--seed',
        seed,
        '--today',
        '2026-03-01',
        '--out',
        out,
        '--no-progress',
      );
      expect(result).toMatchObject({ code: 0, err: '' });
      return [out, companionPath(out, 'crawls'), companionPath(out, 'labels')].map(sha256);
    };
    const first = await run('a.ndjson.gz', '7');
    expect(await run('b.ndjson.gz', '7')).toEqual(first);
    const other = await run('c.ndjson.gz', '8');
    expect(other[0]).not.toBe(first[0]);
  });

  it('writes exactly the number of observations asked for, with crawls and labels files beside them', async () => {
    for (const size of [1, 4_321, 30_000]) {
      const out = folder.file(`observations-${size}.ndjson`);
      const result = await generate(
        '--observations',
        String(size),
        '--out',
        out,
        '--today',
        '2026-03-01',
        '--no-progress',
      );
      expect(result.code).toBe(0);
      expect(lines(fs.readFileSync(out, 'utf8'))).toHaveLength(size);
      expect(result.out).toContain(`Wrote ${size.toLocaleString('en-US')} observations to ${out}`);
      expect(fs.existsSync(folder.file(`crawls-${size}.ndjson`))).toBe(true);
      expect(fs.existsSync(folder.file(`labels-${size}.ndjson`))).toBe(true);
    }
    // gzip and CSV hold the same records.
    const gz = folder.file('same.ndjson.gz');
    await generate(
      '--observations',
      '4321',
      '--out',
      gz,
      '--today',
      '2026-03-01',
      '--no-crawls',
      '--no-labels',
      '--no-progress',
    );
    expect(gunzipSync(fs.readFileSync(gz)).toString()).toBe(
      fs.readFileSync(folder.file('observations-4321.ndjson'), 'utf8'),
    );
    expect(fs.existsSync(companionPath(gz, 'crawls'))).toBe(false);
    const csv = folder.file('same.csv');
    await generate('--observations', '4321', '--out', csv, '--today', '2026-03-01', '--no-progress');
    expect(lines(fs.readFileSync(csv, 'utf8'))).toHaveLength(4322);
    expect(fs.readFileSync(csv, 'utf8').split('\n')[0]).toBe(
      'creative_id,advertiser_id,advertiser_name,country,seen_on,landing_url',
    );
  });

  it('writes crawl order by default (day by day, advertisers mixed); --order sorted groups by advertiser', async () => {
    const write = async (name: string, ...order: string[]) => {
      const out = folder.file(name);
      const args = ['--observations', '20000', '--today', '2026-03-01', '--no-crawls', '--no-labels', '--no-progress'];
      expect((await generate(...args, '--out', out, ...order)).code).toBe(0);
      return lines(fs.readFileSync(out, 'utf8')).map((line) => JSON.parse(line) as Record<string, string>);
    };
    const crawl = await write('crawl.ndjson');
    const sorted = await write('sorted.ndjson', '--order', 'sorted');
    const switches = (records: Record<string, string>[]) =>
      records.filter((record, n) => n > 0 && record.advertiser_id !== records[n - 1].advertiser_id).length;

    const days = crawl.map((record) => record.seen_on);
    expect(days).toEqual([...days].sort());
    // Mixed: most neighbours in a crawl file are two different advertisers; grouped, few are.
    expect(switches(crawl)).toBeGreaterThan(crawl.length / 2);
    expect(switches(sorted)).toBeLessThan(sorted.length / 10);
    const canonical = (records: Record<string, string>[]) => records.map((record) => JSON.stringify(record)).sort();
    expect(canonical(crawl)).toEqual(canonical(sorted));
  });

  it('its files load through ingest with zero rejects: the demo fixtures, and names in every script', async () => {
    const out = folder.file('load.csv.gz');
    expect((await generate('--observations', '25000', '--seed', '3', '--out', out, '--no-progress')).code).toBe(0);
    for (const [kind, file] of [
      ['observations', out],
      ['crawls', companionPath(out, 'crawls')],
      ['labels', companionPath(out, 'labels')],
    ]) {
      const result = await runCli('ingest', [kind, file, '--json'], { databaseUrl: db.url });
      expect(result.code, result.stderr).toBe(0);
      const summary = JSON.parse(result.stdout);
      expect(summary, kind).toMatchObject({ format: 'csv', gzip: true, rejected: 0, rejects_file: null });
      if (kind === 'observations') expect(summary).toMatchObject({ read: 25_000, new: 25_000 });
    }
    expect(await checkAggregates(db.sql)).toEqual([]);
    const [{ domains }] =
      await db.sql`SELECT landing_domains AS domains FROM identifiers WHERE advertiser_id = ${DEMO.intermediaryId}`;
    expect(domains).toBe(DEMO.intermediaryDomainCount);
    const [{ type }] =
      await db.sql`SELECT advertiser_type AS type FROM labels WHERE advertiser_name = ${DEMO.intermediaryName}`;
    expect(type).toBe('agency');
    // The background's names (world names by default) come in every script, on their own domains.
    const background = await db.sql<{ name: string }[]>`
      SELECT DISTINCT name FROM identifiers WHERE advertiser_id LIKE 'AR2%'`;
    const scripts = background.map(({ name }) => scriptOf(name));
    expect(new Set(scripts)).toEqual(new Set(SCRIPTS));
    expect(scripts.filter((script) => script !== 'Latin').length / scripts.length).toBeGreaterThan(0.15);
  });

  it('--out - writes the observations to standard output as the command line runs', async () => {
    const result = await runCli('generate-data', [
      '--observations',
      '50',
      '--out',
      '-',
      '--today',
      '2026-03-01',
      '--order',
      'sorted',
    ]);
    expect(result.code).toBe(0);
    expect(lines(result.stdout)).toHaveLength(50);
    expect(JSON.parse(lines(result.stdout)[0])).toMatchObject({
      advertiser_id: DEMO.brandId,
      advertiser_name: DEMO.brandName,
    });
    expect(result.stderr).toContain('Wrote 50 observations to standard output');
  });

  it('--help, and bad usage exits 2 with a message', async () => {
    const help = await generate('--help');
    expect(help.code).toBe(0);
    for (const option of [
      '--observations <n>',
      '--seed <n>',
      '--out <file>',
      '--today <date>',
      '--order <order>',
      '--names <names>',
    ])
      expect(help.out).toContain(option);
    expect((await generate('--seed', '1')).err).toContain("required option '--observations <n>' not specified");
    for (const argv of [
      ['--observations', '0'],
      ['--observations', '12x'],
      ['--observations', '5', '--today', '2026-02-30'],
      ['--observations', '5', '--seed', 'one'],
    ]) {
      const result = await generate(...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.err).toMatch(/is invalid/);
    }
    const unwritable = await generate(
      '--observations',
      '5',
      '--out',
      folder.file('no-such-folder/x.ndjson'),
      '--no-progress',
    );
    expect(unwritable.code).toBe(1);
    expect(unwritable.err).toMatch(/^generate-data: ENOENT/);
  });
});
