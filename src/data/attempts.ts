import { createHash } from 'node:crypto';
import type { Sql } from './client.ts';

/**
 * Attempt counters of the account page (migrations/00015_shared-limits): fixed windows per scope
 * and subject, shared by every service process. Subjects are stored as SHA-256 digests.
 */
export interface AttemptWindow {
  used: number;
  resetMs: number;
}

const digest = (subject: string) => createHash('sha256').update(subject).digest();

/** Counts one attempt of `subject` in `scope`, in windows of `windowSeconds`. */
export async function takeAttempt(
  sql: Sql,
  scope: string,
  subject: string,
  windowSeconds: number,
): Promise<AttemptWindow> {
  const [row] = await sql<{ used: number; reset_ms: number }[]>`
    SELECT used, reset_ms FROM take_attempt(${scope}, ${digest(subject)}, ${windowSeconds})`;
  return { used: row.used, resetMs: row.reset_ms };
}

/** The current windows of several (scope, subject) pairs, in their order; null where none is running. */
export async function attemptWindows(
  sql: Sql,
  pairs: readonly { scope: string; subject: string }[],
): Promise<(AttemptWindow | null)[]> {
  const asked = pairs.map((pair) => ({ scope: pair.scope, subject: digest(pair.subject).toString('hex') }));
  const rows = await sql<{ nth: number; used: number; reset_ms: number }[]>`
    SELECT p.nth::integer, w.used,
           ceil(extract(epoch FROM w.window_ends_at - clock_timestamp()) * 1000)::integer AS reset_ms
    FROM jsonb_array_elements(${sql.json(asked)}) WITH ORDINALITY AS p(pair, nth)
    JOIN attempt_windows w
      ON w.scope = p.pair ->> 'scope' AND w.subject = decode(p.pair ->> 'subject', 'hex')
     AND w.window_ends_at > clock_timestamp()`;
  const windows: (AttemptWindow | null)[] = pairs.map(() => null);
  for (const row of rows) windows[row.nth - 1] = { used: row.used, resetMs: row.reset_ms };
  return windows;
}

/** Forgets `subject`'s attempts in `scope`. */
export async function clearAttempts(sql: Sql, scope: string, subject: string): Promise<void> {
  await sql`DELETE FROM attempt_windows WHERE scope = ${scope} AND subject = ${digest(subject)}`;
}
