import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchGrams } from '../../src/contract/search-grams.ts';
import { SEARCH_KEY_VERSION, searchKey } from '../../src/contract/search-key.ts';
import { rekeyNames } from '../../src/data/search-keys.ts';
import { checkAggregates, ingestObservations } from '../../src/ingest/index.ts';
import { observation, resetData, TODAY } from '../ingest/helpers.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

/**
 * The search keys of advertiser names are computed once and stored with their version
 * (docs/product-rules.md R15.2, migrations/00025_search-keys-stored).
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

const NAMES = ['Сбербанк России', 'Müller Bäckerei GmbH', 'ΟΔΥΣΣΕΥΣ', '㈜삼성전자', 'ＡＢＣ Ｍａｒｔ'];

const stored = async () =>
  db.sql<{ name: string; search_key: string | null; search_grams: string | null; key_version: number | null }[]>`
    SELECT name, search_key, search_grams, key_version FROM advertiser_names ORDER BY name`;

describe('stored search keys', () => {
  it('ingest stores each new name with the key this version computes', async () => {
    // Only keys with letters outside ASCII, or short ones, have n-grams.
    expect(NAMES.map((name) => searchGrams(searchKey(name)) === null)).toEqual([false, true, false, false, false]);
    await resetData(db.sql);
    await ingestObservations(
      db.sql,
      NAMES.map((name, i) => observation({ creative_id: `C${i}`, advertiser_id: `AR${i}`, advertiser_name: name })),
      { today: TODAY },
    );
    expect(await stored()).toEqual(
      [...NAMES]
        .sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1))
        .map((name) => ({
          name,
          search_key: searchKey(name),
          search_grams: searchGrams(searchKey(name)),
          key_version: SEARCH_KEY_VERSION,
        })),
    );
    expect(await checkAggregates(db.sql)).toEqual([]);
  });

  it('checkAggregates reports a stored key that is not the key of its name, or of another version', async () => {
    await db.sql`UPDATE advertiser_names SET search_key = 'sberbank' WHERE name = 'Сбербанк России'`;
    await db.sql`UPDATE advertiser_names SET key_version = 0 WHERE name = 'ΟΔΥΣΣΕΥΣ'`;
    expect(await checkAggregates(db.sql)).toEqual(['advertiser_names: 2 search key(s) not those of their names']);
  });

  it('names keyed by another version, or not keyed, are keyed again when the schema is migrated', async () => {
    await db.sql`
      UPDATE advertiser_names SET search_key = NULL, search_grams = NULL, key_version = NULL WHERE name = '㈜삼성전자'`;
    const lines: string[] = [];
    expect(await rekeyNames(db.sql, (line) => lines.push(line))).toBe(2);
    expect(lines).toEqual([`Keyed 2 advertiser names for search (search key version ${SEARCH_KEY_VERSION})`]);
    expect(await checkAggregates(db.sql)).toEqual(['advertiser_names: 1 search key(s) not those of their names']);
    // A key of the current version is trusted: the wrong one above is left, and reported.
    expect(await rekeyNames(db.sql)).toBe(0);
  });
});
