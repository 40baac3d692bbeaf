import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ingestCrawls } from '../../src/ingest/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { resetData, snapshot } from './helpers.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});
beforeEach(async () => {
  await resetData(db.sql);
});

const crawl = (domain: unknown, crawledAt: unknown) => ({ domain, crawled_at: crawledAt });

async function lastCrawled(): Promise<Record<string, string>> {
  const rows = await db.sql<{ domain: string; at: string }[]>`
    SELECT domain, to_char(last_crawled, 'YYYY-MM-DD HH24:MI:SS') AS at FROM crawls ORDER BY domain`;
  return Object.fromEntries(rows.map((r) => [r.domain, r.at]));
}

describe('ingest crawls: crawled_at is stored in UTC (docs/product-rules.md R10.15)', () => {
  it.each([
    ['YYYY-MM-DD HH:MM:SS is UTC', '2024-03-05 07:08:09', '2024-03-05 07:08:09'],
    ['ISO 8601 without offset is UTC', '2024-03-05T07:08:09', '2024-03-05 07:08:09'],
    ['ISO 8601 with Z', '2024-03-05T07:08:09Z', '2024-03-05 07:08:09'],
    ['offset +05:30 is converted to UTC', '2024-03-05T07:08:09+05:30', '2024-03-05 01:38:09'],
    ['offset +0530 is converted to UTC', '2024-03-05T07:08:09+0530', '2024-03-05 01:38:09'],
    ['negative offset crossing midnight', '2024-03-05T22:30:00-04:00', '2024-03-06 02:30:00'],
    ['offset crossing a year boundary', '2024-01-01T01:00:00+02:00', '2023-12-31 23:00:00'],
    ['fractional seconds are truncated, not rounded', '2024-03-05T07:08:09.999Z', '2024-03-05 07:08:09'],
    ['fractional seconds with the space form', '2024-03-05 07:08:09.5', '2024-03-05 07:08:09'],
    ['fractional seconds and an offset', '2024-03-05T07:08:59.999999+01:00', '2024-03-05 06:08:59'],
  ])('%s: %s -> %s', async (_, input, expected) => {
    const summary = await ingestCrawls(db.sql, [crawl('example.com', input)]);
    expect(summary.rejects).toEqual([]);
    expect(await lastCrawled()).toEqual({ 'example.com': expected });
  });
});

describe('ingest crawls: field rules', () => {
  it.each([
    [crawl('localhost', '2024-03-05 07:08:09'), 'domain has no registrable domain'],
    [crawl('co.uk', '2024-03-05 07:08:09'), 'domain has no registrable domain'],
    [crawl('10.0.0.1', '2024-03-05 07:08:09'), 'domain has no registrable domain'],
    [crawl('', '2024-03-05 07:08:09'), 'missing domain'],
    [crawl(null, '2024-03-05 07:08:09'), 'missing domain'],
    [crawl('example.com', ''), 'missing crawled_at'],
    [crawl('example.com', undefined), 'missing crawled_at'],
    [crawl('example.com', '05/03/2024 07:08'), 'malformed crawled_at'],
    [crawl('example.com', '2024-03-05'), 'malformed crawled_at'],
    [crawl('example.com', '2024-03-05T07:08:09+5:30'), 'malformed crawled_at'],
    [crawl('example.com', '2024-03-05T07:08:09 UTC'), 'malformed crawled_at'],
    [crawl('example.com', 1709622489), 'malformed crawled_at'],
    [crawl('example.com', '2024-02-30 07:08:09'), 'impossible date crawled_at'],
    [crawl('example.com', '2024-03-05 24:00:00'), 'impossible date crawled_at'],
    [crawl('example.com', '2024-03-05 07:60:00'), 'impossible date crawled_at'],
  ])('%j is rejected: %s', async (record, reason) => {
    const summary = await ingestCrawls(db.sql, [record]);
    expect(summary).toMatchObject({ read: 1, rejected: 1, rejects: [{ line: 1, reason }] });
  });

  it('domain is any URL or host, reduced to its root domain', async () => {
    await ingestCrawls(db.sql, [
      crawl('https://WWW.Shop.Example.co.uk:443/a?b#c', '2024-03-05 07:08:09'),
      crawl('bücher.de', '2024-03-05 07:08:09'),
    ]);
    expect(Object.keys(await lastCrawled())).toEqual(['example.co.uk', 'xn--bcher-kva.de']);
  });
});

describe('ingest crawls: only the latest crawl of a domain is kept', () => {
  it('later crawls are "updated", earlier or equal ones "unchanged", in the file and across loads', async () => {
    const first = await ingestCrawls(db.sql, [
      crawl('example.com', '2024-03-05 10:00:00'),
      crawl('www.example.com', '2024-03-04 10:00:00'), // earlier: kept the later one
      crawl('example.com', '2024-03-06T10:00:00+02:00'), // 08:00 UTC on the 6th: later
      crawl('other.de', '2024-01-01 00:00:00'),
    ]);
    expect(first).toMatchObject({ read: 4, new: 2, updated: 1, unchanged: 1, rejected: 0 });
    expect(await lastCrawled()).toEqual({ 'example.com': '2024-03-06 08:00:00', 'other.de': '2024-01-01 00:00:00' });

    const second = await ingestCrawls(db.sql, [
      crawl('example.com', '2024-03-06 08:00:00'),
      crawl('other.de', '2024-02-01 00:00:00'),
    ]);
    expect(second).toMatchObject({ new: 0, updated: 1, unchanged: 1 });
    expect(await lastCrawled()).toEqual({ 'example.com': '2024-03-06 08:00:00', 'other.de': '2024-02-01 00:00:00' });
  });

  it('idempotency: the same input twice changes nothing', async () => {
    const input = [
      crawl('a.com', '2024-03-05 10:00:00'),
      crawl('b.com', '2024-03-05 11:00:00'),
      crawl('a.com', '2024-03-06 10:00:00'),
    ];
    await ingestCrawls(db.sql, input);
    const before = await snapshot(db.sql);
    const again = await ingestCrawls(db.sql, input);
    expect(again).toMatchObject({ read: 3, new: 0, updated: 0, unchanged: 3 });
    expect(await snapshot(db.sql)).toEqual(before);
  });

  it('the result does not depend on the batch size', async () => {
    const input = [
      crawl('a.com', '2024-03-05 10:00:00'),
      crawl('a.com', '2024-03-04 10:00:00'),
      crawl('a.com', '2024-03-07 10:00:00'),
      crawl('a.com', '2024-03-06 10:00:00'),
    ];
    const summaries = [];
    for (const batchSize of [1, 2, 100]) {
      await resetData(db.sql);
      summaries.push(await ingestCrawls(db.sql, input, { batchSize }));
      expect(await lastCrawled()).toEqual({ 'a.com': '2024-03-07 10:00:00' });
    }
    for (const summary of summaries)
      expect(summary).toEqual({ read: 4, new: 1, updated: 1, unchanged: 2, rejected: 0, rejects: [] });
  });
});
