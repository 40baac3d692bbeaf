/*
 * The watches of brand watch (docs/product-rules.md §19): an account's live watches per dataset
 * (live, or the sandbox's for test keys), created at most once per kind and target and at most
 * `limit` at a time, and the events each one found. The matching at ingest writes `watch_events`;
 * this file only reads them.
 */
import type { Sql } from './client.ts';

export interface WatchRow {
  id: string;
  kind: 'domain' | 'advertiser';
  target: string;
  sandbox: boolean;
  createdAt: Date;
  /** Its place in the account's order of creation: the page cursor of listWatches. */
  position: number;
}

export interface WatchEventRow {
  id: number;
  watchId: string;
  kind: WatchRow['kind'];
  advertiserId: string;
  advertiser: string;
  landingDomain: string;
  firstSeen: string;
  landingDomainCount: number;
  foundAt: Date;
}

/** Whose watches: an account, in the dataset of the key that asks (a test key: the sandbox's). */
export interface WatchHolder {
  accountId: number;
  sandbox: boolean;
}

type WatchRecord = {
  id: string;
  kind: WatchRow['kind'];
  target: string;
  sandbox: boolean;
  created_at: Date;
  position: string | number;
};

const watchRow = (row: WatchRecord): WatchRow => ({
  id: row.id,
  kind: row.kind,
  target: row.target,
  sandbox: row.sandbox,
  createdAt: row.created_at,
  position: Number(row.position),
});

export type WatchCreation =
  | { outcome: 'created' | 'existing'; watch: WatchRow }
  | { outcome: 'limit_reached'; limit: number };

/**
 * Creates the watch, or finds the same live one (R19.9); refuses when the holder already has
 * `limit` live watches (R19.10). One transaction per account at a time (an advisory lock on the
 * account), so a burst of parallel creations never passes the limit and never creates a watch twice.
 */
export async function createWatch(
  sql: Sql,
  holder: WatchHolder,
  { keyId, kind, target, limit }: { keyId: number | null; kind: WatchRow['kind']; target: string; limit: number },
): Promise<WatchCreation> {
  return sql.begin(async (tx): Promise<WatchCreation> => {
    await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`watches:${holder.accountId}`}, 0))`;
    const [existing] = await tx<WatchRecord[]>`
      SELECT id, kind, target, sandbox, created_at, position
      FROM watches
      WHERE account_id = ${holder.accountId} AND sandbox = ${holder.sandbox}
        AND kind = ${kind} AND target = ${target} AND deleted_at IS NULL`;
    if (existing) return { outcome: 'existing', watch: watchRow(existing) };
    const [{ live }] = await tx<{ live: number }[]>`
      SELECT count(*)::int AS live
      FROM watches
      WHERE account_id = ${holder.accountId} AND sandbox = ${holder.sandbox} AND deleted_at IS NULL`;
    if (live >= limit) return { outcome: 'limit_reached', limit };
    const [created] = await tx<WatchRecord[]>`
      INSERT INTO watches (account_id, key_id, kind, target, sandbox)
      VALUES (${holder.accountId}, ${keyId}, ${kind}, ${target}, ${holder.sandbox})
      RETURNING id, kind, target, sandbox, created_at, position`;
    return { outcome: 'created', watch: watchRow(created) };
  }) as Promise<WatchCreation>;
}

/** Up to `limit` live watches of the holder, newest first, older than the one at `before` when given. */
export async function watchesPage(
  sql: Sql,
  holder: WatchHolder,
  { before, limit }: { before?: number; limit: number },
): Promise<{ rows: WatchRow[]; more: boolean }> {
  const rows = await sql<WatchRecord[]>`
    SELECT id, kind, target, sandbox, created_at, position
    FROM watches
    WHERE account_id = ${holder.accountId} AND sandbox = ${holder.sandbox} AND deleted_at IS NULL
      AND position < ${before ?? Number.MAX_SAFE_INTEGER}
    ORDER BY position DESC
    LIMIT ${limit + 1}`;
  return { rows: rows.slice(0, limit).map(watchRow), more: rows.length > limit };
}

/** The holder's live watch with this id, or null (unknown, deleted, another account's or dataset's). */
export async function findWatch(sql: Sql, holder: WatchHolder, id: string): Promise<WatchRow | null> {
  const [row] = await sql<WatchRecord[]>`
    SELECT id, kind, target, sandbox, created_at, position
    FROM watches
    WHERE id = ${id} AND account_id = ${holder.accountId} AND sandbox = ${holder.sandbox} AND deleted_at IS NULL`;
  return row ? watchRow(row) : null;
}

/** Deletes the holder's live watch with this id (R19.13); false when there is none. */
export async function deleteWatch(sql: Sql, holder: WatchHolder, id: string): Promise<boolean> {
  const deleted = await sql`
    UPDATE watches SET deleted_at = now()
    WHERE id = ${id} AND account_id = ${holder.accountId} AND sandbox = ${holder.sandbox} AND deleted_at IS NULL`;
  return deleted.count === 1;
}

/** Up to `limit` events of a watch, newest first, older than the event `before` when given. */
export async function watchEventsPage(
  sql: Sql,
  watch: Pick<WatchRow, 'id' | 'kind'>,
  { before, limit }: { before?: number; limit: number },
): Promise<{ rows: WatchEventRow[]; more: boolean }> {
  const rows = await sql<
    {
      id: string | number;
      advertiser_id: string;
      advertiser: string;
      landing_domain: string;
      first_seen: string;
      landing_domain_count: number;
      found_at: Date;
    }[]
  >`
    SELECT id, advertiser_id, advertiser, landing_domain, first_seen::text AS first_seen, landing_domain_count, found_at
    FROM watch_events
    WHERE watch_id = ${watch.id} AND id < ${before ?? Number.MAX_SAFE_INTEGER}
    ORDER BY id DESC
    LIMIT ${limit + 1}`;
  return {
    more: rows.length > limit,
    rows: rows.slice(0, limit).map((row) => ({
      id: Number(row.id),
      watchId: watch.id,
      kind: watch.kind,
      advertiserId: row.advertiser_id,
      advertiser: row.advertiser,
      landingDomain: row.landing_domain,
      firstSeen: row.first_seen,
      landingDomainCount: row.landing_domain_count,
      foundAt: row.found_at,
    })),
  };
}

/** The holder's live watches, newest first, with each one's newest events (the account page). */
export async function watchesWithRecentEvents(
  sql: Sql,
  holder: WatchHolder,
  { watches, events }: { watches: number; events: number },
): Promise<{ watch: WatchRow; events: WatchEventRow[] }[]> {
  const page = await watchesPage(sql, holder, { limit: watches });
  return Promise.all(
    page.rows.map(async (watch) => ({ watch, events: (await watchEventsPage(sql, watch, { limit: events })).rows })),
  );
}
