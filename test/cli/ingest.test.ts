// @module-tag runtime
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endRuns, registerRun } from '../../src/data/service-runs.ts';
import { checkAggregates } from '../../src/ingest/index.ts';
import { observation, resetData, snapshot } from '../ingest/helpers.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { ndjson, runCli, temporaryFolder } from './run-cli.ts';

let db: TestDatabase;
const folder = temporaryFolder('alk-ingest-cli-');
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
  folder.remove();
});
beforeEach(async () => {
  await resetData(db.sql);
});

const ingest = (...args: string[]) => runCli('ingest', args, { databaseUrl: db.url });

// Slow for a reason (20-55 s): each case runs the real command line, a Node process that loads
// the ingest through tsx, as operators run it; the usage errors are proved the same way.

/** One line per case: the file's text and what the rejects file must say about it. */
const LINES: { text: string; reject?: string }[] = [
  { text: JSON.stringify(observation({ creative_id: 'C1' })) },
  { text: '' },
  { text: '{"creative_id": "C2", "advertiser_id": ', reject: 'invalid JSON' },
  { text: '["C3", "AR1"]', reject: 'not a JSON object' },
  { text: JSON.stringify(observation({ creative_id: 'C4', country: undefined })), reject: 'missing country' },
  { text: JSON.stringify(observation({ creative_id: 'C5', advertiser_id: null })), reject: 'missing advertiser_id' },
  { text: JSON.stringify(observation({ creative_id: 'C6', advertiser_id: 'ar6' })), reject: 'malformed advertiser_id' },
  {
    text: JSON.stringify(observation({ creative_id: 'C7', advertiser_id: 'AR7x' })),
    reject: 'malformed advertiser_id',
  },
  {
    text: JSON.stringify(observation({ creative_id: 'C8', seen_on: '2023-02-29' })),
    reject: 'impossible date seen_on',
  },
  { text: JSON.stringify(observation({ creative_id: 'C9', seen_on: '2024/06/01' })), reject: 'malformed seen_on' },
  { text: JSON.stringify(observation({ creative_id: 'C10', seen_on: '2999-01-01' })), reject: 'future date seen_on' },
  {
    text: JSON.stringify(observation({ creative_id: 'C11', landing_url: 'http://localhost:8080/x' })),
    reject: 'landing_url has no registrable domain',
  },
  {
    text: JSON.stringify(observation({ creative_id: 'C12', landing_url: 'https://co.uk/' })),
    reject: 'landing_url has no registrable domain',
  },
  {
    text: JSON.stringify(observation({ creative_id: 'C1', advertiser_id: 'AR2', seen_on: '2024-06-02' })),
    reject: 'creative already tied to another identifier',
  },
  { text: JSON.stringify(observation({ creative_id: 'C13', country: 'USA' })), reject: 'malformed country' },
  { text: JSON.stringify(observation({ creative_id: 'C14', country: 12 })), reject: 'malformed country' },
  {
    text: JSON.stringify(observation({ creative_id: 'C15', advertiser_name: 'x'.repeat(513) })),
    reject: 'advertiser_name too long',
  },
  { text: '   \t' },
  { text: JSON.stringify(observation({ creative_id: 'C16', advertiser_id: 'AR16' })) },
  { text: '{}', reject: 'missing creative_id' },
];
const FILE_TEXT = LINES.map((line) => `${line.text}\n`).join('');
const REJECTED = LINES.map((line, index) => ({ ...line, line: index + 1 })).filter((line) => line.reject !== undefined);

describe('npm run ingest: every reject reason, with its line, in the rejects file', () => {
  it('observations: counts, and the rejects file keeps each record as written with its line and reason', async () => {
    const file = folder.file('mixed.ndjson', FILE_TEXT);
    const result = await ingest('observations', file, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const rejectsFile = folder.file('mixed.rejects.ndjson');
    expect(JSON.parse(result.stdout)).toMatchObject({
      kind: 'observations',
      format: 'ndjson',
      read: 18, // blank lines are skipped, not read
      new: 2,
      updated: 0,
      unchanged: 0,
      rejected: REJECTED.length,
      rejects_file: rejectsFile,
    });

    const rejects = fs.readFileSync(rejectsFile, 'utf8').split('\n').slice(0, -1);
    expect(rejects.map((text) => JSON.parse(text))).toEqual(
      REJECTED.map(({ line, reject, text }) => {
        const parsed = (() => {
          try {
            return JSON.parse(text);
          } catch {
            return undefined;
          }
        })();
        const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
        return isObject ? { _line: line, _reason: reject, ...parsed } : { _line: line, _reason: reject, _text: text };
      }),
    );
    // The original text follows the line and reason unchanged.
    expect(rejects[2]).toBe(`{"_line":5,"_reason":"missing country",${LINES[4].text.slice(1)}`);
    expect(rejects[0]).toBe(`{"_line":3,"_reason":"invalid JSON","_text":${JSON.stringify(LINES[2].text)}}`);
    expect(rejects.at(-1)).toBe('{"_line":20,"_reason":"missing creative_id"}');
    expect(await checkAggregates(db.sql)).toEqual([]);
  });

  it(
    'a fixed rejects file loads like any other file: the ' + 'fixed records go in, the rest are rejected again',
    async () => {
      const file = folder.file('tofix.ndjson', FILE_TEXT);
      expect((await ingest('observations', file, '--json')).code).toBe(0);
      const rejectsFile = folder.file('tofix.rejects.ndjson');
      const fixed = fs
        .readFileSync(rejectsFile, 'utf8')
        .replace('"country":"USA"', '"country":"US"')
        .replace('2023-02-29', '2023-02-28');
      const fixedFile = folder.file('fixed.ndjson', fixed);
      const again = await ingest('observations', fixedFile, '--json');
      expect(JSON.parse(again.stdout)).toMatchObject({ read: REJECTED.length, new: 2, rejected: REJECTED.length - 2 });
      const rejectedAgain = fs
        .readFileSync(folder.file('fixed.rejects.ndjson'), 'utf8')
        .split('\n')
        .slice(0, -1)
        .map((text) => JSON.parse(text));
      expect(rejectedAgain).toHaveLength(REJECTED.length - 2);
      const reasons = rejectedAgain.map((r) => r._reason);
      expect(reasons.filter((reason) => reason === 'malformed country')).toHaveLength(1); // the 12, not the USA
      expect(reasons).not.toContain('impossible date seen_on');
    },
  );

  it('crawls and labels: their own reasons', async () => {
    const crawls = folder.file(
      'crawls.ndjson',
      ndjson([
        { domain: 'https://www.example.co.uk/a', crawled_at: '2024-03-05T07:08:09+01:00' },
        { domain: 'localhost', crawled_at: '2024-03-05 07:08:09' },
        { domain: 'example.com', crawled_at: '2024-02-30 07:08:09' },
        { domain: 'example.com', crawled_at: '05/03/2024' },
        { domain: 'example.com' },
      ]),
    );
    const crawlResult = await ingest('crawls', crawls, '--json');
    expect(JSON.parse(crawlResult.stdout)).toMatchObject({ read: 5, new: 1, rejected: 4 });
    expect(
      fs
        .readFileSync(folder.file('crawls.rejects.ndjson'), 'utf8')
        .split('\n')
        .slice(0, -1)
        .map((text) => {
          const { _line, _reason } = JSON.parse(text);
          return [_line, _reason];
        }),
    ).toEqual([
      [2, 'domain has no registrable domain'],
      [3, 'impossible date crawled_at'],
      [4, 'malformed crawled_at'],
      [5, 'missing crawled_at'],
    ]);
    expect(await db.sql`SELECT domain, to_char(last_crawled, 'YYYY-MM-DD HH24:MI:SS') AS at FROM crawls`).toEqual([
      { domain: 'example.co.uk', at: '2024-03-05 06:08:09' },
    ]);

    const labels = folder.file(
      'labels.csv',
      'advertiser_name,advertiser_type\nAcme,agency\nGlobex,Agency\n,direct\nInitech,\n',
    );
    const labelResult = await ingest('labels', labels, '--json');
    expect(JSON.parse(labelResult.stdout)).toMatchObject({ format: 'csv', read: 4, new: 1, unchanged: 1, rejected: 2 });
    expect(fs.readFileSync(folder.file('labels.rejects.csv'), 'utf8')).toBe(
      '_line,_reason,advertiser_name,advertiser_type\n3,unknown ' +
        'advertiser_type,Globex,Agency\n4,missing advertiser_name,,direct\n',
    );
  });

  it('--rejects chooses the rejects file; a clean load writes none', async () => {
    const file = folder.file('some.ndjson', ndjson([observation({ creative_id: 'A' }), { creative_id: 'B' }]));
    const target = folder.file('elsewhere.txt');
    const result = await ingest('observations', file, '--rejects', target, '--json');
    expect(JSON.parse(result.stdout)).toMatchObject({ rejected: 1, rejects_file: target });
    expect(fs.readFileSync(target, 'utf8')).toBe('{"_line":2,"_reason":"missing advertiser_id","creative_id":"B"}\n');

    const clean = folder.file('clean.ndjson', ndjson([observation({ creative_id: 'A' })]));
    expect(JSON.parse((await ingest('observations', clean, '--json')).stdout)).toMatchObject({
      rejected: 0,
      rejects_file: null,
    });
    expect(fs.existsSync(folder.file('clean.rejects.ndjson'))).toBe(false);
  });
});

describe('npm run ingest: idempotent', () => {
  it(
    'the same file twice: the second run reports every ' + 'accepted row unchanged, and the database is identical',
    async () => {
      const file = folder.file('twice.ndjson', FILE_TEXT);
      const first = JSON.parse((await ingest('observations', file, '--json')).stdout);
      const before = await snapshot(db.sql);
      const second = JSON.parse((await ingest('observations', file, '--json')).stdout);
      expect(second).toMatchObject({
        read: first.read,
        new: 0,
        updated: 0,
        unchanged: first.new,
        rejected: first.rejected,
      });
      expect(await snapshot(db.sql)).toEqual(before);
    },
  );
});

describe('npm run ingest: output', () => {
  it('--json prints exactly one JSON object on standard output and nothing else', async () => {
    const file = folder.file('one.ndjson', ndjson([observation()]));
    const result = await ingest('observations', file, '--json');
    expect(result.code).toBe(0);
    expect(result.stdout.endsWith('}\n')).toBe(true);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    const summary = JSON.parse(result.stdout);
    expect(Object.keys(summary)).toEqual([
      'kind',
      'file',
      'format',
      'gzip',
      'read',
      'new',
      'updated',
      'unchanged',
      'rejected',
      'rejects_file',
      'seconds',
      'rows_per_second',
    ]);
    expect(summary).toMatchObject({ kind: 'observations', file, read: 1, new: 1 });
    expect(typeof summary.seconds).toBe('number');
  });

  it('without --json: a summary sentence with read, new, updated, unchanged, rejected and seconds', async () => {
    const file = folder.file('sentence.ndjson', ndjson([observation(), { creative_id: 'x' }]));
    const result = await ingest('observations', file);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        String.raw`^Loaded observations from .*sentence\.ndjson in [0-9.]+ s \([0-9,]+ rows/s\): ` +
          String.raw`2 read, 1 new, 0 updated, 0 unchanged, 1 rejected\.\n`,
      ),
    );
    expect(result.stdout).toContain('sentence.rejects.ndjson');
  });
});

describe('npm run ingest: beside the running service (docs/product-rules.md R10.24)', () => {
  it(
    'says on standard error that it applies on one connection; ' + '--full-speed applies on two and says nothing',
    async () => {
      const file = folder.file('beside.ndjson', ndjson([observation()]));
      const run = randomUUID();
      await registerRun(db.sql, { id: run, host: 'lookup-host', pid: 4242 });
      try {
        const beside = await ingest('observations', file, '--no-progress');
        expect(beside.code).toBe(0);
        expect(beside.stderr).toContain('the service is running on this database: applying on one connection');
        const fullSpeed = await ingest('observations', file, '--no-progress', '--full-speed');
        expect(fullSpeed.code).toBe(0);
        expect(fullSpeed.stderr).toBe('');
      } finally {
        await endRuns(db.sql, [run]);
      }
      const alone = await ingest('observations', file, '--no-progress');
      expect(alone.stderr).toBe('');
    },
  );
});

describe('npm run ingest: failures and usage', () => {
  it('a file that cannot be read: exit 1, a clear message, nothing loaded and nothing on standard output', async () => {
    const missing = await ingest('observations', folder.file('no-such-file.ndjson'), '--json');
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toBe(`ingest: cannot read ${folder.file('no-such-file.ndjson')}: no such file\n`);

    const directory = await ingest('observations', folder.dir);
    expect(directory.code).toBe(1);
    expect(directory.stderr).toContain('is a directory');

    const truncated = folder.file(
      'truncated.ndjson.gz',
      Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x01]),
    );
    const corrupt = await ingest('observations', truncated);
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toMatch(/^ingest: cannot decompress .*truncated\.ndjson\.gz: /);

    const header = await ingest('observations', folder.file('bad-header.csv', 'creative_id,advertiser_id\nC1,AR1\n'));
    expect(header.code).toBe(1);
    expect(header.stderr).toContain('lacks advertiser_name, country, landing_url, seen_on');
    expect((await db.sql`SELECT count(*)::integer AS n FROM observations`)[0].n).toBe(0);
  });

  it('--help on the program and on every command', async () => {
    const top = await ingest('--help');
    expect(top.code).toBe(0);
    for (const kind of ['observations', 'crawls', 'labels']) expect(top.stdout).toContain(`${kind} [options] <file>`);
    for (const kind of ['observations', 'crawls', 'labels']) {
      const help = await ingest(kind, '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: ingest ${kind} [options] <file>`);
      expect(help.stdout).toContain('--rejects <path>');
      expect(help.stdout).toContain('--format <format>');
      expect(help.stdout).toContain('--json');
    }
  });

  it.each([
    [['nonsense', 'x.ndjson'], /unknown command 'nonsense'/],
    [['observations'], /missing required argument 'file'/],
    [['observations', 'x.ndjson', '--format', 'xml'], /argument 'xml' is invalid\. Allowed choices are ndjson, csv/],
    [['observations', 'x.ndjson', '--batch-size', '0'], /--batch-size <rows>' argument '0' is invalid/],
    [['observations', 'x.ndjson', '--bogus'], /unknown option '--bogus'/],
  ])('bad usage %j exits 2 with a message', async (args, message) => {
    const result = await ingest(...args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(message);
  });
});
