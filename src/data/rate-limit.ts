import type { Sql } from './client.ts';

/** A key's window under the rate limit: the calls counted in it and the milliseconds to its end. */
export interface RateWindow {
  used: number;
  resetMs: number;
}

/**
 * The key's current window without counting a call (migrations/00015_shared-limits), or null
 * when it has none (never counted, or its last window ended). Most calls are counted by the debit
 * statement itself (data/billing.ts); this is for answers that come before it.
 */
export async function rateLimitStanding(sql: Sql, keyHash: Buffer): Promise<RateWindow | null> {
  const [row] = await sql<{ used: number; reset_ms: number }[]>`
    SELECT used, reset_ms FROM rate_limit_standing(${keyHash})`;
  return row ? { used: row.used, resetMs: row.reset_ms } : null;
}

/** Counts one call of a valid key outside the debit (a replay, a retry taking over a paid call). */
export async function takeRateLimit(sql: Sql, keyId: number, windowSeconds: number): Promise<RateWindow> {
  const [row] = await sql<{ used: number; reset_ms: number }[]>`
    SELECT used, reset_ms FROM take_rate_limit(${keyId}, ${windowSeconds})`;
  return { used: row.used, resetMs: row.reset_ms };
}
