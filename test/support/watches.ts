import { createApiKey } from '../../src/data/accounts.ts';
import type { Sql } from '../../src/data/client.ts';
import type { TestApi } from './api.ts';

/** What a watch's answers carry (the contract's Watch). */
export interface WatchBody {
  id: string;
  kind: 'domain' | 'advertiser';
  target: string;
  sandbox: boolean;
  created_at: string;
}

/** `POST /api/v1/watches` with a JSON body (given as text when it is a string). */
export function createWatch(
  api: TestApi,
  key: string,
  body: unknown,
  headers: Record<string, string> = { 'Content-Type': 'application/json' },
) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return api.request('/api/v1/watches', { key, method: 'POST', headers, body: text });
}

/** A test key of the account (its watches are sandbox watches). */
export async function testKeyOf(api: TestApi, accountId: number): Promise<string> {
  return (await createApiKey(api.db.sql, accountId, { test: true })).key;
}

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
