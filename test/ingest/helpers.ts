import type { Sql } from '../../src/data/client.ts';

/** Every table ingest writes, in a stable order. */
export const DATA_TABLES = [
  'observations',
  'identifiers',
  'identifier_domains',
  'identifier_months',
  'identifier_month_domains',
  'landing_domain_stats',
  'advertiser_names',
  'advertiser_name_tokens',
  'name_words',
  'name_word_variants',
  'landing_domain_stems',
  'crawls',
  'labels',
] as const;

/** Empties the data tables so each test starts from no data (billing tables are untouched). */
export async function resetData(sql: Sql): Promise<void> {
  await sql.unsafe(`TRUNCATE ${DATA_TABLES.join(', ')}`);
  await sql`ALTER SEQUENCE ingest_batches RESTART`;
}

/** All rows of all data tables, in a deterministic order, with dates as text. */
export async function snapshot(sql: Sql): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const table of DATA_TABLES) {
    const rows = await sql.unsafe(`SELECT to_jsonb(t)::text AS row FROM ${table} t ORDER BY 1`);
    result[table] = rows.map((r) => r.row);
  }
  return result;
}

/** A valid observation record; override any field. */
export function observation(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    creative_id: 'CR1',
    advertiser_id: 'AR1',
    advertiser_name: 'Acme Outdoor',
    country: 'US',
    seen_on: '2024-06-01',
    landing_url: 'https://www.acme-outdoor.com/tents',
    ...overrides,
  };
}

/** A fixed "today" for the future-date rule. */
export const TODAY = new Date('2024-06-15T12:00:00Z');
