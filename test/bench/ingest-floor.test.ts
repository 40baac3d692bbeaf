import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseRecords,
  INCREMENT_SEED,
  INCREMENT_TODAY,
  incrementOf,
  incrementRecords,
} from '../../scripts/bench/daily-increment.ts';
import { writeEndStateFloor, writeIncrementFloor } from '../../scripts/bench/ingest-floor.ts';
import { cpuSeconds } from '../../scripts/bench/service.ts';
import { rootDomain } from '../../src/contract/root-domain.ts';
import { checkAggregates, ingestObservations } from '../../src/ingest/index.ts';
import { inCrawlOrder } from '../../src/synthetic/crawl-order.ts';
import type { ObservationRecord } from '../../src/synthetic/generator.ts';
import { generateDataset } from '../../src/synthetic/generator.ts';
import { take } from '../../src/synthetic/write-files.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

const TODAY = new Date('2026-11-25T00:00:00Z');

/** Every table a load writes, as rows to compare; ingest_seq is left out (the two number rows differently). */
const TABLES = {
  observations:
    'SELECT creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country FROM observations',
  identifiers: `SELECT advertiser_id, name, country, name_seen_on, creatives, landing_domains, first_seen, last_seen
                FROM identifiers`,
  identifier_domains: 'SELECT * FROM identifier_domains',
  identifier_months: 'SELECT * FROM identifier_months',
  identifier_month_domains: 'SELECT * FROM identifier_month_domains',
  landing_domain_stats: 'SELECT * FROM landing_domain_stats',
  advertiser_names: 'SELECT * FROM advertiser_names',
  landing_domain_stems: 'SELECT * FROM landing_domain_stems',
};

/** The rows as the benchmark's COPY text of the observation's columns. */
function writeCopyText(file: string, records: readonly ObservationRecord[]): void {
  fs.writeFileSync(
    file,
    records
      .map((r) => [r.creative_id, r.seen_on, rootDomain(r.landing_url), r.advertiser_id, r.advertiser_name, r.country])
      .map((fields) => `${fields.join('\t')}\n`)
      .join(''),
  );
}

async function contents(db: TestDatabase): Promise<Record<string, string[]>> {
  const all: Record<string, string[]> = {};
  for (const [table, query] of Object.entries(TABLES)) {
    all[table] = (await db.sql.unsafe(query)).map((row) => JSON.stringify(row)).sort();
  }
  return all;
}

describe('the ingest benchmark floor (docs/ingest.md)', () => {
  let loaded: TestDatabase;
  let floor: TestDatabase;
  let folder: string;
  beforeAll(async () => {
    [loaded, floor] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-floor-'));
  });
  afterAll(async () => {
    await Promise.all([loaded.drop(), floor.drop()]);
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('writes exactly the end state a real load of the same rows reaches', async () => {
    const records = [
      ...inCrawlOrder(take(generateDataset({ seed: 3, size: 6_000, today: TODAY }).observations(), 5_000), 3),
    ];
    const copyFile = path.join(folder, 'rows.copy');
    writeCopyText(copyFile, records);

    const summary = await ingestObservations(loaded.sql, records, { today: TODAY, batchSize: 700 });
    // The floor takes distinct identities: every row of this file is one.
    expect(summary.new).toBe(records.length);
    const run = await writeEndStateFloor(floor.sql, copyFile, cpuSeconds);

    expect(run.seconds).toBeGreaterThan(0);
    expect(await checkAggregates(floor.sql)).toEqual([]);
    const [real, written] = await Promise.all([contents(loaded), contents(floor)]);
    for (const table of Object.keys(TABLES)) expect(written[table], table).toEqual(real[table]);
    expect(written.observations).toHaveLength(records.length);
  });

  it(
    'of the daily increment: writes exactly the end state a real load ' + 'of the increment onto the base reaches',
    async () => {
      const base = 4_000;
      const records = [...inCrawlOrder(incrementRecords(base), INCREMENT_SEED)];
      const copyFile = path.join(folder, 'increment.copy');
      writeCopyText(copyFile, records);
      for (const db of [loaded, floor]) {
        await db.sql`TRUNCATE observations, identifiers, identifier_domains, identifier_months,
                   identifier_month_domains, landing_domain_stats, advertiser_names, advertiser_name_tokens,
                   landing_domain_stems`;
        await ingestObservations(db.sql, baseRecords(base), { today: INCREMENT_TODAY, batchSize: 700 });
      }

      const summary = await ingestObservations(loaded.sql, records, { today: INCREMENT_TODAY, batchSize: 300 });
      // A quarter new, the rest repeating the base exactly: what the floor takes.
      expect(records).toHaveLength(incrementOf(base));
      expect(summary).toMatchObject({ new: incrementOf(base) / 4, unchanged: (incrementOf(base) * 3) / 4, updated: 0 });
      const run = await writeIncrementFloor(floor.sql, copyFile, cpuSeconds);

      expect(run.seconds).toBeGreaterThan(0);
      expect(await checkAggregates(floor.sql)).toEqual([]);
      const [real, written] = await Promise.all([contents(loaded), contents(floor)]);
      for (const table of Object.keys(TABLES)) expect(written[table], table).toEqual(real[table]);
      expect(written.observations).toHaveLength(base + incrementOf(base) / 4);
    },
  );

  it('of the daily increment: refuses a row that changes a stored observation, rather than apply it', async () => {
    const [stored] = await floor.sql<(ObservationRecord & { landing_domain: string })[]>`
      SELECT creative_id, seen_on::text AS seen_on, landing_domain, advertiser_id, advertiser_name, country
      FROM observations LIMIT 1`;
    const copyFile = path.join(folder, 'changed.copy');
    writeCopyText(copyFile, [
      {
        creative_id: stored.creative_id,
        seen_on: stored.seen_on,
        landing_url: stored.landing_domain,
        advertiser_id: stored.advertiser_id,
        advertiser_name: `${stored.advertiser_name} renamed`,
        country: stored.country,
      },
    ]);
    await expect(writeIncrementFloor(floor.sql, copyFile, cpuSeconds)).rejects.toThrow(
      /repeating a stored observation/,
    );
  });
});
