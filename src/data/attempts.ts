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

/** One counter to take an attempt from: `subject` in `scope`, in windows of `windowSeconds`. */
export interface AttemptCounter {
  scope: string;
  subject: string;
  windowSeconds: number;
}

const digest = (subject: string) => createHash('sha256').update(subject).digest();

/**
 * Counts one attempt on each counter, in one statement, and returns each one's count with this
 * attempt included, in their order. Counting comes before any check, so parallel attempts each
 * get a count of their own and no two can both see room that only one of them has. The rows are
 * taken in (scope, subject) order, so two statements never wait for each other's rows.
 */
export async function takeAttempts(sql: Sql, counters: readonly AttemptCounter[]): Promise<AttemptWindow[]> {
  const asked = counters.map((counter, i) => ({
    nth: i + 1,
    scope: counter.scope,
    subject: digest(counter.subject).toString('hex'),
    window_seconds: counter.windowSeconds,
  }));
  const rows = await sql<{ scope: string; subject: Buffer; used: number; reset_ms: number }[]>`
    INSERT INTO attempt_windows AS w (scope, subject, window_ends_at, used)
    SELECT a.scope, decode(a.subject, 'hex'), clock_timestamp() + make_interval(secs => a.window_seconds), 1
    FROM jsonb_to_recordset(${sql.json(asked)}) AS a(nth integer, scope text, subject text, window_seconds integer)
    ORDER BY a.scope, a.subject
    ON CONFLICT (scope, subject) DO UPDATE
    SET used = CASE WHEN w.window_ends_at <= clock_timestamp() THEN 1 ELSE w.used + 1 END,
        window_ends_at = CASE WHEN w.window_ends_at <= clock_timestamp() THEN excluded.window_ends_at
                              ELSE w.window_ends_at END
    RETURNING w.scope, w.subject, w.used,
              ceil(extract(epoch FROM w.window_ends_at - clock_timestamp()) * 1000)::integer AS reset_ms`;
  return asked.map((a) => {
    const row = rows.find((r) => r.scope === a.scope && r.subject.toString('hex') === a.subject);
    if (!row) throw new Error(`no attempt window returned for ${a.scope}`);
    return { used: row.used, resetMs: row.reset_ms };
  });
}

/**
 * Gives an attempt back to each counter whose window is still running (an attempt that turned
 * out right is no failure), never below zero.
 */
export async function giveBackAttempts(sql: Sql, counters: readonly Omit<AttemptCounter, 'windowSeconds'>[]) {
  const asked = counters.map((counter) => ({ scope: counter.scope, subject: digest(counter.subject).toString('hex') }));
  await sql`
    UPDATE attempt_windows w SET used = greatest(w.used - 1, 0)
    FROM jsonb_to_recordset(${sql.json(asked)}) AS a(scope text, subject text)
    WHERE w.scope = a.scope AND w.subject = decode(a.subject, 'hex') AND w.window_ends_at > clock_timestamp()`;
}
