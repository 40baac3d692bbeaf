import { refundOnce } from './billing.ts';
import type { Sql } from './client.ts';

/** A start of the service, as the database knows it (migrations/00006_charge-once). */
export interface ServiceRun {
  id: string;
  host: string;
  pid: number;
}

export async function registerRun(sql: Sql, run: ServiceRun): Promise<void> {
  await sql`INSERT INTO service_runs (id, host, pid) VALUES (${run.id}, ${run.host}, ${run.pid})`;
}

/**
 * The run's heartbeat. A run that another process ended while this one lived (its heartbeat was
 * older than STALE_AFTER_SECONDS, as during a long loss of the database) is opened again, so the
 * charges it makes from now on are not taken for a dead run's.
 */
export async function beat(sql: Sql, runId: string): Promise<void> {
  await sql`UPDATE service_runs SET heartbeat_at = now(), ended_at = NULL WHERE id = ${runId}`;
}

/** Ends runs: the caller's own when it stops, or runs found dead. */
export async function endRuns(sql: Sql, runIds: readonly string[]): Promise<void> {
  if (runIds.length === 0) return;
  await sql`UPDATE service_runs SET ended_at = now() WHERE id IN ${sql(runIds)} AND ended_at IS NULL`;
}

/** Runs not ended, other than `except`. */
export async function openRuns(sql: Sql, except: string): Promise<(ServiceRun & { stale: boolean })[]> {
  return sql<(ServiceRun & { stale: boolean })[]>`
    SELECT id, host, pid, heartbeat_at < now() - make_interval(secs => ${STALE_AFTER_SECONDS}) AS stale
    FROM service_runs
    WHERE ended_at IS NULL AND id <> ${except}`;
}

/** A run whose heartbeat is older than this is dead, wherever it ran. */
export const STALE_AFTER_SECONDS = 30;

/** Whether a run of the service is alive on this database: not ended, its heartbeat recent. */
export async function serviceRunning(sql: Sql): Promise<boolean> {
  const [{ running }] = await sql<{ running: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM service_runs
      WHERE ended_at IS NULL AND heartbeat_at >= now() - make_interval(secs => ${STALE_AFTER_SECONDS})
    ) AS running`;
  return running;
}

/**
 * Delivery marks: these charges' answers were written to their callers. Charges already refunded
 * or marked have no row left, so a mark is idempotent.
 */
export async function markDelivered(sql: Sql, chargeIds: readonly number[]): Promise<void> {
  if (chargeIds.length === 0) return;
  await sql`DELETE FROM undelivered_charges WHERE charge_id IN ${sql(chargeIds)}`;
}

/**
 * The charges nobody received and nobody will: their run ended before their answer was seen
 * leaving it, or their Idempotency-Key expired before a retry received the answer. A charge an
 * unexpired Idempotency-Key claim still holds waits for the retry, which runs on it.
 */
export async function chargesNeverDelivered(
  sql: Sql,
  keysExpiredAt: Date,
  limit = 1_000,
): Promise<{ chargeId: number; requestId: string | null }[]> {
  return sql<{ chargeId: number; requestId: string | null }[]>`
    SELECT u.charge_id AS "chargeId", l.request_id AS "requestId"
    FROM undelivered_charges u
    JOIN ledger l ON l.id = u.charge_id
    LEFT JOIN service_runs run ON run.id = u.run_id
    WHERE (run.ended_at IS NOT NULL OR u.idempotency_key IS NOT NULL)
      AND NOT EXISTS (
        SELECT 1 FROM idempotency_keys held
        WHERE held.account_id = u.account_id AND held.idempotency_key = u.idempotency_key
          AND held.charge_id = u.charge_id AND held.created_at > ${keysExpiredAt}
      )
    ORDER BY u.charge_id
    LIMIT ${limit}`;
}

/**
 * Refunds one charge found by `chargesNeverDelivered`, unless its answer was marked delivered
 * meanwhile (the row is locked, so a mark racing with this refund wins or waits) or it already
 * has its refund. Null when nothing was refunded.
 */
export function refundUndelivered(sql: Sql, chargeId: number, requestId: string | null) {
  return refundOnce(
    sql,
    sql`SELECT l.* FROM undelivered_charges u JOIN ledger l ON l.id = u.charge_id WHERE u.charge_id = ${chargeId}
      FOR UPDATE OF u`,
    requestId,
  );
}
