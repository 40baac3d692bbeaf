import type { Sql } from './client.ts';

/** A signed-in browser, as the account page needs it. */
export interface SessionRow {
  accountId: number;
  email: string;
  csrfToken: string;
  /** When the session last counted as used; refreshed at most once a minute. */
  lastSeenAt: Date;
}

/**
 * Starts a session under `idHash` (SHA-256 of the cookie's value), ending at `expiresAt` whatever
 * its use. The caller makes a new id at every sign-in, so an id set before it (fixation) signs
 * nobody in.
 */
export async function insertSession(
  sql: Sql,
  session: { idHash: Buffer; accountId: number; csrfToken: string; expiresAt: Date },
): Promise<void> {
  await sql`
    INSERT INTO account_sessions (id_hash, account_id, csrf_token, expires_at)
    VALUES (${session.idHash}, ${session.accountId}, ${session.csrfToken}, ${session.expiresAt})`;
}

/**
 * The live session under `idHash`: not signed out, not past its absolute expiry, used within the
 * idle period, of an account that is not disabled. Its use is recorded (to the minute) in the same
 * statement.
 */
export async function touchSession(sql: Sql, idHash: Buffer, idleSeconds: number): Promise<SessionRow | null> {
  const [row] = await sql<{ account_id: number; email: string; csrf_token: string; last_seen_at: Date }[]>`
    WITH live AS (
      SELECT s.id_hash, s.account_id, s.csrf_token, s.last_seen_at, l.email
      FROM account_sessions s
      JOIN accounts a ON a.id = s.account_id AND a.disabled_at IS NULL
      JOIN account_logins l ON l.account_id = s.account_id
      WHERE s.id_hash = ${idHash}
        AND s.ended_at IS NULL
        AND s.expires_at > now()
        AND s.last_seen_at > now() - make_interval(secs => ${idleSeconds})
    ), touched AS (
      UPDATE account_sessions s SET last_seen_at = now()
      FROM live WHERE s.id_hash = live.id_hash AND live.last_seen_at < now() - interval '1 minute'
    )
    SELECT account_id, email, csrf_token, last_seen_at FROM live`;
  return row
    ? { accountId: row.account_id, email: row.email, csrfToken: row.csrf_token, lastSeenAt: row.last_seen_at }
    : null;
}

/** Signs one session out. */
export async function endSession(sql: Sql, idHash: Buffer): Promise<void> {
  await sql`UPDATE account_sessions SET ended_at = now() WHERE id_hash = ${idHash} AND ended_at IS NULL`;
}

/** Signs every session of the account out (sign out everywhere, a password reset); returns how many ended. */
export async function endAllSessions(sql: Sql, accountId: number): Promise<number> {
  const rows = await sql`
    UPDATE account_sessions SET ended_at = now() WHERE account_id = ${accountId} AND ended_at IS NULL RETURNING 1`;
  return rows.length;
}

/** Signs every other session of the account out (a password change keeps only the browser that made it). */
export async function endOtherSessions(sql: Sql, accountId: number, keptIdHash: Buffer): Promise<number> {
  const rows = await sql`
    UPDATE account_sessions SET ended_at = now()
    WHERE account_id = ${accountId} AND ended_at IS NULL AND id_hash <> ${keptIdHash} RETURNING 1`;
  return rows.length;
}
