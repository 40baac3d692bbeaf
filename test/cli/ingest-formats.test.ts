// @module-tag runtime
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAggregates, ingestObservations } from '../../src/ingest/index.ts';
import { generateDataset } from '../../src/synthetic/generator.ts';
import { resetData, snapshot } from '../ingest/helpers.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { ndjson, runCli, temporaryFolder } from './run-cli.ts';

let db: TestDatabase;
const folder = temporaryFolder('alk-ingest-formats-');
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
  folder.remove();
});

const FIELDS = ['creative_id', 'advertiser_id', 'advertiser_name', 'country', 'landing_url', 'seen_on'] as const;
type Observation = Record<(typeof FIELDS)[number], string>;

/** Generated data, then names COPY and CSV must carry byte for byte, and one update of an earlier row. */
const RECORDS: Observation[] = [
  ...generateDataset({ seed: 5, size: 6_000, today: new Date('2026-01-15T00:00:00Z') }).observations(),
  ...[
    'Comma, Quote " and ""double""',
    'Tab\there, back\\slash \\N and \\t',
    'Line\nbreak and\r\nCRLF',
    ' leading and trailing spaces ',
    'Ünïcödé 😀 名前',
  ].map((name, i) => ({
    creative_id: `TRICKY-${i}`,
    advertiser_id: `AR9${i}`,
    advertiser_name: name,
    country: 'de',
    landing_url: 'https://www.Example.co.uk/path?q=1,2',
    seen_on: '2025-12-31',
  })),
  {
    creative_id: 'TRICKY-4',
    advertiser_id: 'AR94',
    advertiser_name: 'Renamed',
    country: 'FR',
    landing_url: 'example.co.uk',
    seen_on: '2025-12-31',
  },
];

const csvField = (value: string) =>
  /[",\r\n]/.test(value) || value.trim() !== value ? `"${value.replace(/"/g, '""')}"` : value;
const csv = (records: readonly Observation[], eol = '\n') =>
  [FIELDS.join(','), ...records.map((record) => FIELDS.map((field) => csvField(record[field])).join(','))]
    .map((line) => `${line}${eol}`)
    .join('');

async function loadAndSnapshot(args: string[], input?: string | Buffer) {
  await resetData(db.sql);
  const result = await runCli('ingest', ['observations', ...args, '--json'], { databaseUrl: db.url, input });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(await checkAggregates(db.sql)).toEqual([]);
  return { summary: JSON.parse(result.stdout), tables: await snapshot(db.sql) };
}

describe('npm run ingest: NDJSON, CSV, gzip and standard input give identical results', () => {
  // What the library loads, each form of the file is compared with; one test a form, as each runs
  // the real command line (a Node process of its own, seconds on a loaded machine).
  let expected: Awaited<ReturnType<typeof snapshot>>;
  beforeAll(async () => {
    await resetData(db.sql);
    const direct = await ingestObservations(db.sql, RECORDS);
    expected = await snapshot(db.sql);
    expect(direct).toMatchObject({ read: RECORDS.length, new: RECORDS.length - 1, updated: 1, rejected: 0 });
  });

  it('the library loads the tricky names as written', async () => {
    await resetData(db.sql);
    await ingestObservations(db.sql, RECORDS);
    const names = (
      await db.sql<
        { name: string }[]
      >`SELECT name FROM identifiers WHERE advertiser_id LIKE 'AR9_' ORDER BY advertiser_id`
    ).map((r) => r.name);
    expect(names).toEqual([
      'Comma, Quote " and ""double""',
      'Tab\there, back\\slash \\N and \\t',
      'Line\nbreak and\r\nCRLF',
      ' leading and trailing spaces ',
      'Renamed',
    ]);
  });

  const inputs: [string, () => string[], (() => string | Buffer)?][] = [
    ['NDJSON', () => [folder.file('data.ndjson', ndjson(RECORDS))]],
    ['NDJSON, gzip', () => [folder.file('data.ndjson.gz', gzipSync(ndjson(RECORDS)))]],
    [
      '.jsonl with CRLF line ends and a byte order mark',
      () => [folder.file('data.jsonl', `\uFEFF${ndjson(RECORDS).replace(/\n/g, '\r\n')}`)],
    ],
    ['CSV', () => [folder.file('data.csv', csv(RECORDS))]],
    ['CSV, gzip', () => [folder.file('data.csv.gz', gzipSync(csv(RECORDS)))]],
    [
      'CSV with CRLF line ends, named .txt, --format csv',
      () => [folder.file('data.txt', csv(RECORDS, '\r\n')), '--format', 'csv'],
    ],
    ['NDJSON on standard input', () => ['-', '--format', 'ndjson'], () => ndjson(RECORDS)],
    ['gzip CSV on standard input, format guessed', () => ['-'], () => gzipSync(csv(RECORDS))],
  ];
  for (const [what, args, input] of inputs) {
    it(`${what}: the same rows in the same tables as the library's load`, async () => {
      const { summary, tables } = await loadAndSnapshot(args(), input?.());
      expect(summary).toMatchObject({
        read: RECORDS.length,
        new: RECORDS.length - 1,
        updated: 1,
        unchanged: 0,
        rejected: 0,
        rejects_file: null,
      });
      expect(tables).toEqual(expected);
    });
  }
});

describe('npm run ingest: CSV records', () => {
  it(
    'line numbers count the header as line 1 and a quoted ' + 'line break within its record; blank lines are skipped',
    async () => {
      const text = [
        // any column order; extra columns are ignored
        'landing_url,seen_on,creative_id,advertiser_id,advertiser_name,country,extra',
        'acme.com,2025-01-01,C1,AR1,"Acme\nOutdoor",US,x',
        '',
        'acme.com,2025-01-01,C2,AR1,Acme,US', // one field short
        'acme.com,2025-01-01,C3,AR1,"Acme "quoted"",US,x', // text after a closing quote
        'acme.com,2025-01-01,C4,AR1,Acme,USA,x',
        'acme.com,2025-01-01,C5,AR1,"Acme,US,x', // a quote never closed: costs this record only
        'acme.com,2025-01-01,C6,AR1,Acme,US,x',
        '',
      ].join('\n');
      const file = folder.file('lines.csv', text);
      const { summary } = await loadAndSnapshot([file]);
      expect(summary).toMatchObject({ read: 6, new: 2, rejected: 4 });
      expect(fs.readFileSync(folder.file('lines.rejects.csv'), 'utf8')).toBe(
        [
          '_line,_reason,landing_url,seen_on,creative_id,advertiser_id,advertiser_name,country,extra',
          '5,expected 7 fields, got 6,acme.com,2025-01-01,C2,AR1,Acme,US',
          '6,malformed CSV quoting,acme.com,2025-01-01,C3,AR1,"Acme "quoted"",US,x',
          '7,malformed country,acme.com,2025-01-01,C4,AR1,Acme,USA,x',
          '8,unclosed quote,acme.com,2025-01-01,C5,AR1,"Acme,US,x',
          '',
        ]
          .join('\n')
          .replace('expected 7 fields, got 6', '"expected 7 fields, got 6"'),
      );
      expect(await db.sql`SELECT creative_id, advertiser_name FROM observations ORDER BY creative_id`).toEqual([
        { creative_id: 'C1', advertiser_name: 'Acme\nOutdoor' },
        { creative_id: 'C6', advertiser_name: 'Acme' },
      ]);
    },
  );
});
