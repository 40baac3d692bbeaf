import type { Sql } from './client.ts';

/** An account's alert settings, as its page shows them. */
export interface AlertSettings {
  /** The account's balance now, to say whether it is below the threshold. */
  balance: number;
  /** Credits below which a debit raises the low-balance alert; null: no alert. */
  threshold: number | null;
  /** The HTTPS endpoint that receives the alerts besides the email, and its signing secret. */
  webhook: { url: string; secret: string } | null;
}

export async function alertSettingsOf(sql: Sql, accountId: number): Promise<AlertSettings> {
  const [row] = await sql<{ balance: number; threshold: number | null; url: string | null; secret: string | null }[]>`
    SELECT a.balance, a.low_balance_threshold AS threshold, w.url, w.secret
    FROM accounts a LEFT JOIN alert_webhooks w ON w.account_id = a.id
    WHERE a.id = ${accountId}`;
  return {
    balance: row?.balance ?? 0,
    threshold: row?.threshold ?? null,
    webhook: row?.url && row.secret ? { url: row.url, secret: row.secret } : null,
  };
}

/** What saving a threshold came to: the balance then, and whether it raised an alert at once. */
export interface ThresholdSaved {
  balance: number;
  /** The balance was already below the new threshold and the alert armed: one alert is raised now. */
  alerted: boolean;
}

/**
 * A new threshold (null: no alert), docs/product-rules.md R14.10. The alert is armed when the
 * balance meets it, so lowering it below the balance alerts at the next fall. A threshold the
 * balance is already below alerts at once, as a crossing would, when the alert is armed; when an
 * alert was already raised for this low balance (disarmed), it raises no second one. One
 * statement under the account's row lock, like a debit, so no debit crosses in between.
 */
export async function setLowBalanceThreshold(
  sql: Sql,
  accountId: number,
  threshold: number | null,
): Promise<ThresholdSaved> {
  const [row] = await sql<{ balance: number; alerted: boolean }[]>`
    WITH before AS (
      SELECT id, low_balance_armed AS armed FROM accounts WHERE id = ${accountId} FOR UPDATE
    ), saved AS (
      UPDATE accounts a
      SET low_balance_threshold = ${threshold},
        low_balance_armed = a.balance >= coalesce(${threshold}::bigint, 0)
      FROM before WHERE a.id = before.id
      RETURNING a.id, a.balance, before.armed AND a.balance < ${threshold}::bigint AS alerting
    ), alerted AS (
      INSERT INTO balance_alerts (account_id, balance, threshold)
      SELECT id, balance, ${threshold} FROM saved WHERE alerting
      RETURNING id
    )
    SELECT balance, EXISTS (SELECT FROM alerted) AS alerted FROM saved`;
  return { balance: row?.balance ?? 0, alerted: row?.alerted ?? false };
}

export async function setAlertWebhook(sql: Sql, accountId: number, url: string, secret: string): Promise<void> {
  await sql`
    INSERT INTO alert_webhooks (account_id, url, secret) VALUES (${accountId}, ${url}, ${secret})
    ON CONFLICT (account_id) DO UPDATE SET url = excluded.url, secret = excluded.secret, created_at = now()`;
}

export async function removeAlertWebhook(sql: Sql, accountId: number): Promise<void> {
  await sql`DELETE FROM alert_webhooks WHERE account_id = ${accountId}`;
}

/**
 * Turns the alerts no sender has seen into their deliveries: an email when the account has a
 * verified sign-in address, a webhook post when it registered an endpoint (its URL and secret as
 * they are now). SKIP LOCKED: several senders (instances) never expand one alert twice.
 */
export async function expandAlerts(sql: Sql, limit = 100): Promise<number> {
  const rows = await sql`
    WITH taken AS (
      UPDATE balance_alerts SET expanded_at = now()
      WHERE id IN (
        SELECT id FROM balance_alerts WHERE expanded_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING id, account_id
    )
    INSERT INTO alert_deliveries (alert_id, account_id, channel, target)
    SELECT t.id, t.account_id, 'email', l.email
    FROM taken t JOIN account_logins l ON l.account_id = t.account_id AND l.email_verified_at IS NOT NULL
    UNION ALL
    SELECT t.id, t.account_id, 'webhook', w.url
    FROM taken t JOIN alert_webhooks w ON w.account_id = t.account_id
    RETURNING id`;
  return rows.length;
}

/** A delivery due now, with what its message says. */
export interface DueDelivery {
  id: number;
  alertId: number;
  accountId: number;
  channel: 'email' | 'webhook';
  target: string;
  /** The attempts made before this one. */
  attempts: number;
  balance: number;
  threshold: number;
  alertedAt: Date;
  /** The webhook's current secret; null for an email or when the webhook was removed since. */
  secret: string | null;
}

/**
 * Takes up to `limit` deliveries that are due, for `leaseMs`: another sender skips them until the
 * lease ends, so a sender that dies mid-attempt leaves them to the next one.
 */
export async function takeDueDeliveries(sql: Sql, limit: number, leaseMs: number): Promise<DueDelivery[]> {
  const rows = await sql<
    {
      id: number;
      alert_id: number;
      account_id: number;
      channel: 'email' | 'webhook';
      target: string;
      attempts: number;
      balance: number;
      threshold: number;
      alerted_at: Date;
      secret: string | null;
    }[]
  >`
    WITH taken AS (
      UPDATE alert_deliveries d
      SET locked_until = now() + ${leaseMs} * interval '1 millisecond'
      WHERE d.id IN (
        SELECT id FROM alert_deliveries
        WHERE delivered_at IS NULL AND given_up_at IS NULL AND next_attempt_at <= now()
          AND (locked_until IS NULL OR locked_until < now())
        ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING d.*
    )
    SELECT t.id, t.alert_id, t.account_id, t.channel, t.target, t.attempts, a.balance, a.threshold,
      a.created_at AS alerted_at, w.secret
    FROM taken t
    JOIN balance_alerts a ON a.id = t.alert_id
    LEFT JOIN alert_webhooks w ON w.account_id = t.account_id AND t.channel = 'webhook' AND w.url = t.target
    ORDER BY t.id`;
  return rows.map((row) => ({
    id: row.id,
    alertId: row.alert_id,
    accountId: row.account_id,
    channel: row.channel,
    target: row.target,
    attempts: row.attempts,
    balance: row.balance,
    threshold: row.threshold,
    alertedAt: row.alerted_at,
    secret: row.secret,
  }));
}

/** What one attempt came to. */
export interface AttemptOutcome {
  ok: boolean;
  /** The webhook's HTTP status, when it answered. */
  status: number | null;
  error: string | null;
}

/**
 * Records an attempt and what follows it: delivered, another attempt at `retryAt`, or given up
 * (`retryAt` null after a failure).
 */
export async function recordAttempt(
  sql: Sql,
  delivery: Pick<DueDelivery, 'id' | 'attempts'>,
  outcome: AttemptOutcome,
  retryAt: Date | null,
): Promise<void> {
  const attempt = delivery.attempts + 1;
  await sql`
    WITH attempt AS (
      INSERT INTO alert_attempts (delivery_id, attempt, ok, status, error)
      VALUES (${delivery.id}, ${attempt}, ${outcome.ok}, ${outcome.status}, ${outcome.error})
    )
    UPDATE alert_deliveries
    SET attempts = ${attempt},
      locked_until = NULL,
      last_error = ${outcome.error},
      delivered_at = CASE WHEN ${outcome.ok} THEN now() END,
      given_up_at = CASE WHEN NOT ${outcome.ok} AND ${retryAt}::timestamptz IS NULL THEN now() END,
      next_attempt_at = coalesce(${retryAt}::timestamptz, next_attempt_at)
    WHERE id = ${delivery.id}`;
}

/** A delivery as the account page lists it. */
export interface DeliveryListing {
  id: number;
  alertedAt: Date;
  balance: number;
  threshold: number;
  channel: 'email' | 'webhook';
  target: string;
  attempts: number;
  state: 'delivered' | 'retrying' | 'given up' | 'pending';
  lastAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
}

/** The account's latest deliveries, newest first. */
export async function deliveriesOf(sql: Sql, accountId: number, limit = 50): Promise<DeliveryListing[]> {
  const rows = await sql<
    {
      id: number;
      alerted_at: Date;
      balance: number;
      threshold: number;
      channel: 'email' | 'webhook';
      target: string;
      attempts: number;
      delivered_at: Date | null;
      given_up_at: Date | null;
      last_error: string | null;
      last_attempt_at: Date | null;
      last_status: number | null;
    }[]
  >`
    SELECT d.id, a.created_at AS alerted_at, a.balance, a.threshold, d.channel, d.target, d.attempts,
      d.delivered_at, d.given_up_at, d.last_error, last.attempted_at AS last_attempt_at, last.status AS last_status
    FROM alert_deliveries d
    JOIN balance_alerts a ON a.id = d.alert_id
    LEFT JOIN alert_attempts last ON last.delivery_id = d.id AND last.attempt = d.attempts
    WHERE d.account_id = ${accountId}
    ORDER BY d.id DESC
    LIMIT ${limit}`;
  return rows.map((row) => ({
    id: row.id,
    alertedAt: row.alerted_at,
    balance: row.balance,
    threshold: row.threshold,
    channel: row.channel,
    target: row.target,
    attempts: row.attempts,
    state: row.delivered_at ? 'delivered' : row.given_up_at ? 'given up' : row.attempts > 0 ? 'retrying' : 'pending',
    lastAttemptAt: row.last_attempt_at,
    lastStatus: row.last_status,
    lastError: row.last_error,
  }));
}
