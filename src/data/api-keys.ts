import type { Sql } from './client.ts';

/**
 * An API key as its holder (the account page) and the operator (admin) see it: never its
 * plaintext, which is not stored. The one shape every reader of keys gets.
 */
export interface ApiKey {
  id: number;
  accountId: number;
  name: string | null;
  displayPrefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  /** Credits the key may spend per UTC day; null: no cap. */
  dailyCap: number | null;
  /** Credits it spent today (UTC), refunds deducted, capped or not (a test key's at what its calls would cost). */
  spentToday: number;
  /** A test key: its calls are the sandbox's (docs/product-rules.md §17). */
  sandbox: boolean;
}

interface KeyRow {
  id: number;
  account_id: number;
  name: string | null;
  display_prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  daily_cap: number | null;
  spent_today: number;
  sandbox: boolean;
}

function apiKey(row: KeyRow): ApiKey {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    displayPrefix: row.display_prefix,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    dailyCap: row.daily_cap,
    spentToday: row.spent_today,
    sandbox: row.sandbox,
  };
}

const keyColumns = (sql: Sql) => sql`
  id, account_id, name, display_prefix, created_at, last_used_at, revoked_at, daily_cap, sandbox,
  CASE WHEN cap_day = (now() AT TIME ZONE 'UTC')::date THEN cap_day_spent ELSE 0 END AS spent_today`;

/** The account's keys, active ones first, newest first. */
export async function keysOf(sql: Sql, accountId: number): Promise<ApiKey[]> {
  const rows = await sql<KeyRow[]>`
    SELECT ${keyColumns(sql)}
    FROM api_keys WHERE account_id = ${accountId}
    ORDER BY revoked_at IS NOT NULL, id DESC`;
  return rows.map(apiKey);
}

/** One of the account's keys; null when the id is another account's or does not exist. */
export async function keyOf(sql: Sql, accountId: number, keyId: number): Promise<ApiKey | null> {
  const [row] = await sql<KeyRow[]>`
    SELECT ${keyColumns(sql)}
    FROM api_keys WHERE account_id = ${accountId} AND id = ${keyId}`;
  return row ? apiKey(row) : null;
}

/** The keys, of any account, with this id, this display prefix or this hash of their plaintext, by id. */
export async function keysWith(
  sql: Sql,
  reference: { id: number } | { displayPrefix: string } | { hash: Buffer },
): Promise<ApiKey[]> {
  const condition =
    'id' in reference
      ? sql`id = ${reference.id}`
      : 'hash' in reference
        ? sql`key_hash = ${reference.hash}`
        : sql`display_prefix = ${reference.displayPrefix}`;
  const rows = await sql<KeyRow[]>`SELECT ${keyColumns(sql)} FROM api_keys WHERE ${condition} ORDER BY id`;
  return rows.map(apiKey);
}

/** Revokes the key only when it belongs to the account; false when it does not (or is revoked already). */
export async function revokeKeyOf(sql: Sql, accountId: number, keyId: number): Promise<boolean> {
  const rows = await sql`
    UPDATE api_keys SET revoked_at = now()
    WHERE id = ${keyId} AND account_id = ${accountId} AND revoked_at IS NULL
    RETURNING id`;
  return rows.length === 1;
}

/** Revokes the key whichever account holds it (the operator); false when it is revoked already or unknown. */
export async function revokeApiKey(sql: Sql, keyId: number): Promise<boolean> {
  const rows =
    await sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${keyId} AND revoked_at IS NULL RETURNING id`;
  return rows.length === 1;
}

/** Records that the keys were used now (the key-use recorder calls it at most once a minute per key). */
export async function markKeysUsed(sql: Sql, keyIds: number[]): Promise<void> {
  // An IN list, not an array parameter: the request pool reads no array types (data/client.ts).
  await sql`UPDATE api_keys SET last_used_at = now() WHERE id IN ${sql(keyIds)}`;
}

/**
 * Sets or removes (null) the daily cap of one of the account's active keys; false when the key is
 * another account's, revoked or unknown. The key's spend today is kept by every debit, capped or
 * not (migrations/00023_spend-of-every-key), so a new cap counts what the key already spent today.
 */
export async function setDailyCap(sql: Sql, accountId: number, keyId: number, cap: number | null): Promise<boolean> {
  const rows = await sql`
    UPDATE api_keys SET daily_cap = ${cap}
    WHERE id = ${keyId} AND account_id = ${accountId} AND revoked_at IS NULL
    RETURNING id`;
  return rows.length === 1;
}

/** Whether the key of this hash is live: known, of its kind (test or live), not revoked, its account not disabled. */
export async function keyIsLive(sql: Sql, keyHash: Buffer, sandbox: boolean): Promise<boolean> {
  const rows = await sql`
    SELECT 1 FROM api_keys k JOIN accounts a ON a.id = k.account_id
    WHERE k.key_hash = ${keyHash} AND k.sandbox = ${sandbox} AND k.revoked_at IS NULL AND a.disabled_at IS NULL`;
  return rows.length === 1;
}
