import type { Sql } from './client.ts';

/** An account's two-factor state: its secret (also while setting up), and whether it is on. */
export interface TwoFactorState {
  secret: string | null;
  enabled: boolean;
  lastStep: number | null;
}

export async function twoFactorOf(sql: Sql, accountId: number): Promise<TwoFactorState> {
  const [row] = await sql<{ totp_secret: string | null; enabled: boolean; totp_last_step: string | null }[]>`
    SELECT totp_secret, totp_enabled_at IS NOT NULL AS enabled, totp_last_step
    FROM account_logins WHERE account_id = ${accountId}`;
  return row
    ? {
        secret: row.totp_secret,
        enabled: row.enabled,
        lastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
      }
    : { secret: null, enabled: false, lastStep: null };
}

/** Starts setting up with a new secret (off until a code confirms it); an account with it on keeps its own. */
export async function startTwoFactorSetup(sql: Sql, accountId: number, secret: string): Promise<void> {
  await sql`
    UPDATE account_logins SET totp_secret = ${secret}, totp_last_step = NULL
    WHERE account_id = ${accountId} AND totp_enabled_at IS NULL`;
}

/**
 * Records `step` as the last code used, only if it is later than the last one: false when a code
 * of that step (or a later one) was used already, so a code works once even in two requests at once.
 */
export async function useCodeStep(sql: Sql, accountId: number, step: number): Promise<boolean> {
  const rows = await sql`
    UPDATE account_logins SET totp_last_step = ${step}
    WHERE account_id = ${accountId} AND (totp_last_step IS NULL OR totp_last_step < ${step})
    RETURNING 1`;
  return rows.length === 1;
}

/** Turns two-factor sign-in on with its recovery codes (their SHA-256), replacing any older ones. */
export async function enableTwoFactor(sql: Sql, accountId: number, codeHashes: Buffer[]): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`UPDATE account_logins SET totp_enabled_at = now() WHERE account_id = ${accountId}`;
    await tx`DELETE FROM account_recovery_codes WHERE account_id = ${accountId}`;
    for (const codeHash of codeHashes)
      await tx`INSERT INTO account_recovery_codes (account_id, code_hash) VALUES (${accountId}, ${codeHash})`;
  });
}

/** Turns it off: the secret and the recovery codes are gone. */
export async function disableTwoFactor(sql: Sql, accountId: number): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`
      UPDATE account_logins SET totp_secret = NULL, totp_enabled_at = NULL, totp_last_step = NULL
      WHERE account_id = ${accountId}`;
    await tx`DELETE FROM account_recovery_codes WHERE account_id = ${accountId}`;
  });
}

/** Uses one recovery code: true once per code. */
export async function useRecoveryCode(sql: Sql, accountId: number, codeHash: Buffer): Promise<boolean> {
  const rows = await sql`
    UPDATE account_recovery_codes SET used_at = now()
    WHERE account_id = ${accountId} AND code_hash = ${codeHash} AND used_at IS NULL RETURNING 1`;
  return rows.length === 1;
}

export async function unusedRecoveryCodes(sql: Sql, accountId: number): Promise<number> {
  const [{ left }] = await sql<{ left: number }[]>`
    SELECT count(*)::int AS left FROM account_recovery_codes WHERE account_id = ${accountId} AND used_at IS NULL`;
  return left;
}

/** A sign-in waiting for its code (its cookie's SHA-256), for five minutes. */
export async function insertChallenge(
  sql: Sql,
  challenge: { idHash: Buffer; accountId: number; next: string },
): Promise<void> {
  await sql`
    INSERT INTO sign_in_challenges (id_hash, account_id, next, expires_at)
    VALUES (${challenge.idHash}, ${challenge.accountId}, ${challenge.next}, now() + interval '5 minutes')`;
}

/** The waiting sign-in under `idHash`, with its account's address; null when unknown or expired. */
export async function challengeOf(
  sql: Sql,
  idHash: Buffer,
): Promise<{ accountId: number; email: string; next: string } | null> {
  const [row] = await sql<{ account_id: number; email: string; next: string }[]>`
    SELECT c.account_id, l.email, c.next
    FROM sign_in_challenges c JOIN account_logins l ON l.account_id = c.account_id
    WHERE c.id_hash = ${idHash} AND c.expires_at > now()`;
  return row ? { accountId: row.account_id, email: row.email, next: row.next } : null;
}

export async function endChallenge(sql: Sql, idHash: Buffer): Promise<void> {
  await sql`DELETE FROM sign_in_challenges WHERE id_hash = ${idHash} OR expires_at < now()`;
}
