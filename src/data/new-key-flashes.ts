import type { Sql } from './client.ts';

/** A new key on its way to the page that shows it once (migrations/00024_new-key-flash). */
export interface NewKeyFlash {
  keyId: number;
  /** The sealed plaintext (web/new-key-flash.ts opens it). */
  sealed: Buffer;
  granted: number;
}

/** Keeps the session's new key for `seconds`, replacing one it had; expired ones of every session go. */
export async function putNewKeyFlash(
  sql: Sql,
  sessionIdHash: Buffer,
  flash: NewKeyFlash,
  seconds: number,
): Promise<void> {
  await sql`DELETE FROM new_key_flashes WHERE expires_at <= now()`;
  await sql`
    INSERT INTO new_key_flashes (session_id_hash, key_id, sealed, granted, expires_at)
    VALUES (${sessionIdHash}, ${flash.keyId}, ${flash.sealed}, ${flash.granted},
      now() + make_interval(secs => ${seconds}))
    ON CONFLICT (session_id_hash) DO UPDATE
    SET key_id = excluded.key_id, sealed = excluded.sealed, granted = excluded.granted,
      expires_at = excluded.expires_at`;
}

/** The session's new key, once: the read deletes it; null when there is none, or it expired. */
export async function takeNewKeyFlash(sql: Sql, sessionIdHash: Buffer): Promise<NewKeyFlash | null> {
  const [row] = await sql<{ key_id: number; sealed: Buffer; granted: number; live: boolean }[]>`
    DELETE FROM new_key_flashes WHERE session_id_hash = ${sessionIdHash}
    RETURNING key_id, sealed, granted, expires_at > now() AS live`;
  return row?.live ? { keyId: row.key_id, sealed: row.sealed, granted: row.granted } : null;
}
