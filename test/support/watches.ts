import type { Sql } from '../../src/data/client.ts';

export interface TestWatch {
  id: string;
  accountId: number;
  keyId: number | null;
}

/**
 * A watch row, written as the watches API would (migrations/00031_watches): tests of the
 * delivery side create their watches here, not through the API's routes.
 */
export async function insertWatch(
  sql: Sql,
  watch: { accountId: number; keyId?: number | null; kind: 'domain' | 'advertiser'; target: string; sandbox?: boolean },
): Promise<TestWatch> {
  const [row] = await sql<{ id: string }[]>`
    INSERT INTO public.watches (account_id, key_id, kind, target, sandbox)
    VALUES (${watch.accountId}, ${watch.keyId ?? null}, ${watch.kind}, ${watch.target}, ${watch.sandbox ?? false})
    RETURNING id`;
  return { id: row.id, accountId: watch.accountId, keyId: watch.keyId ?? null };
}

export interface FoundEvent {
  watch_id: string;
  advertiser_id: string;
  advertiser: string;
  landing_domain: string;
  first_seen: string;
  landing_domain_count: number;
}

/** Every watch event, without its id and time, in a stable order. */
export async function foundEvents(sql: Sql): Promise<FoundEvent[]> {
  return sql<FoundEvent[]>`
    SELECT watch_id::text, advertiser_id, advertiser, landing_domain, to_char(first_seen, 'YYYY-MM-DD') AS first_seen,
           landing_domain_count
    FROM public.watch_events
    ORDER BY watch_id, advertiser_id, landing_domain`;
}
