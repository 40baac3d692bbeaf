import type postgres from 'postgres';
import { searchGrams } from '../contract/search-grams.ts';
import { SEARCH_KEY_VERSION, searchKey } from '../contract/search-key.ts';
import { nameTokens } from '../contract/search-tokens.ts';

/**
 * The stored search keys of advertiser names (migrations/00025_search-keys-stored): computed in
 * TypeScript (contract/search-key.ts), written with the version that computed them, and keyed
 * again when that version changes.
 */

/** The schemas that hold an advertiser_names table: the live data's and the sandbox's. */
const NAME_SCHEMAS = ['public', 'sandbox'] as const;

/** Names keyed per statement when the keys of a version are replaced. */
const REKEY_CHUNK = 10_000;

/**
 * `names` with their keys, n-grams and tokens, as one JSON parameter for
 * `json_to_recordset(…) AS k(name text, search_key text, search_grams integer[], search_tokens text[])`.
 */
export function keyedNames(names: readonly string[]): string {
  return JSON.stringify(
    names.map((name) => {
      const key = searchKey(name);
      return { name, search_key: key, search_grams: searchGrams(key), search_tokens: nameTokens(key) };
    }),
  );
}

/**
 * Keys every name of advertiser_names whose key is of another version than SEARCH_KEY_VERSION, or
 * missing, a chunk at a time; returns how many. Nothing to do, it costs one probe of an index per
 * schema. Run after the SQL migrations, under their lock, so the service and ingest only ever
 * see keys of the current version.
 */
export async function rekeyNames(sql: postgres.Sql, log: (line: string) => void = () => {}): Promise<number> {
  let total = 0;
  for (const schema of NAME_SCHEMAS) {
    const table = sql(`${schema}.advertiser_names`);
    for (;;) {
      // Both sides of the version, so the index on key_version serves the search.
      const stale = await sql<{ name: string }[]>`
        SELECT name FROM ${table}
         WHERE key_version IS NULL OR key_version < ${SEARCH_KEY_VERSION} OR key_version > ${SEARCH_KEY_VERSION}
         LIMIT ${REKEY_CHUNK}`;
      if (stale.length === 0) break;
      const keyed = keyedNames(stale.map((row) => row.name));
      await sql`
        UPDATE ${table} a
           SET search_key = k.search_key, search_grams = k.search_grams, search_tokens = k.search_tokens,
               key_version = ${SEARCH_KEY_VERSION}
          FROM json_to_recordset(${keyed}::text::json)
               AS k(name text, search_key text, search_grams integer[], search_tokens text[])
         WHERE a.name = k.name COLLATE "C"`;
      total += stale.length;
    }
  }
  if (total > 0) log(`Keyed ${total} advertiser names for search (search key version ${SEARCH_KEY_VERSION})`);
  return total;
}
