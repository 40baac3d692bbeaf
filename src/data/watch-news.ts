import type postgres from 'postgres';
import type { Sql } from './client.ts';
import { writeLedger } from './ledger-entries.ts';

/**
 * The outbox of brand watch news (docs/product-rules.md §19, "Delivery and billing of watch news";
 * migrations/00033_watch-deliveries): queueing, billing, posting and mailing, each taken under a
 * lease or a row lock (SKIP LOCKED), so several service processes share the work and a process
 * killed mid-way leaves its part to the others once its lease ends.
 */

/**
 * Ids as one text parameter: the service's pools do not fetch array types (src/data/client.ts),
 * so an array parameter would not serialize as one.
 */
function ids(list: readonly number[]): string {
  return list.join(',');
}

/** The operation a watch delivery's charge names in the ledger (the contract's webhook). */
export const WATCH_NEWS_OPERATION = 'watchNews';

/** The ledger's request id of a delivery's charge and refund: the receiver sees it as the event's id. */
export function deliveryRequestId(deliveryId: number): string {
  return `watch-news-${deliveryId}`;
}

/**
 * The most changes one post carries (the contract's `maxItems` of WatchNewsEvent.events): a watch
 * with more news in one load gets a delivery per this many, each a delivery with news.
 */
export const MAX_EVENTS_PER_DELIVERY = 10_000;

/**
 * Groups the events no delivery holds yet into one delivery per watch, and one email digest per
 * account, in one statement; returns the deliveries made. Run at the end of each load and at the
 * service's start. Events another process is queueing are skipped, never queued twice.
 */
export async function queueWatchNews(sql: Sql): Promise<number> {
  const rows = await sql`
    WITH locked AS (
      SELECT e.id, e.watch_id, w.account_id, w.sandbox
      FROM watch_events e JOIN watches w ON w.id = e.watch_id
      WHERE e.delivery_id IS NULL
      FOR UPDATE OF e SKIP LOCKED
    ), pending AS (
      SELECT l.*, (row_number() OVER (PARTITION BY l.watch_id ORDER BY l.id) - 1) / ${MAX_EVENTS_PER_DELIVERY} AS part
      FROM locked l
    ), digests AS (
      INSERT INTO watch_digests (account_id)
      SELECT DISTINCT account_id FROM pending
      RETURNING id, account_id
    ), deliveries AS (
      INSERT INTO watch_deliveries (watch_id, account_id, digest_id, sandbox, events, webhook_url, billing, part)
      SELECT p.watch_id, p.account_id, d.id, p.sandbox, count(*), h.url,
             CASE WHEN p.sandbox THEN 'free' ELSE 'due' END, p.part
      FROM pending p
      JOIN digests d ON d.account_id = p.account_id
      LEFT JOIN alert_webhooks h ON h.account_id = p.account_id
      GROUP BY p.watch_id, p.part, p.account_id, d.id, p.sandbox, h.url
      RETURNING id, watch_id, part
    ), queued AS (
      UPDATE watch_events e SET delivery_id = d.id
      FROM pending p JOIN deliveries d ON d.watch_id = p.watch_id AND d.part = p.part
      WHERE e.id = p.id
    )
    SELECT id FROM deliveries`;
  return rows.length;
}

/** What one billing pass did. */
export interface BillingPass {
  /** Deliveries charged. */
  charged: number;
  /** Deliveries held for want of credits. */
  held: number;
  /** Accounts whose news was just held, with the address to tell it to (null: none verified). */
  newlyHeld: { accountId: number; email: string | null }[];
}

/**
 * Bills up to `limit` deliveries: the unbilled ones, and the held ones of accounts whose balance
 * now covers the price (a purchase or a grant releases them). In one transaction: each account's
 * deliveries in order are charged while its balance covers them (a ledger `charge` per delivery,
 * with the watch's key and the operation watchNews) and held past that; an armed low-balance alert
 * goes off as a call's debit sets it off (db/functions/debit_credits.sql).
 */
export async function billWatchNews(sql: Sql, price: number, limit = 500): Promise<BillingPass> {
  // The pass runs every few seconds: it opens a transaction only when there is something to bill.
  // An idle one costs a probe of the partial index and opens no transaction that a database outage
  // could cut: one cut so has stopped the process inside postgres.js (a write to a closed socket).
  const [{ due: anyDue }] = await sql<{ due: boolean }[]>`
    SELECT EXISTS (
      SELECT 1 FROM watch_deliveries d JOIN accounts a ON a.id = d.account_id
      JOIN watches w ON w.id = d.watch_id LEFT JOIN api_keys k ON k.id = w.key_id
      WHERE d.billing IN ('due', 'held') AND ${chargeable(sql)}
        AND (d.billing = 'due' OR (a.balance >= ${price} AND ${capRoom(sql, price)}))
    ) AS due`;
  if (!anyDue) return { charged: 0, held: 0, newlyHeld: [] };
  return sql.begin(async (tx) => {
    const due = await tx<{ id: number; account_id: number; key_id: number | null; billing: string }[]>`
      SELECT d.id, d.account_id, w.key_id, d.billing
      FROM watch_deliveries d
      JOIN watches w ON w.id = d.watch_id
      JOIN accounts a ON a.id = d.account_id
      LEFT JOIN api_keys k ON k.id = w.key_id
      WHERE ${chargeable(tx)}
        AND (d.billing = 'due' OR (d.billing = 'held' AND a.balance >= ${price} AND ${capRoom(tx, price)}))
      ORDER BY d.account_id, d.id
      LIMIT ${limit}
      FOR UPDATE OF d SKIP LOCKED`;
    if (due.length === 0) return { charged: 0, held: 0, newlyHeld: [] };
    const accountIds = [...new Set(due.map((row) => row.account_id))];
    const accounts = await tx<
      { id: number; balance: number; low_balance_armed: boolean; low_balance_threshold: number | null }[]
    >`
      SELECT id, balance, low_balance_armed, low_balance_threshold FROM accounts
      WHERE id = ANY(string_to_array(${ids(accountIds)}, ',')::bigint[]) ORDER BY id FOR UPDATE`;
    const byId = new Map(accounts.map((account) => [account.id, { ...account, alerted: false }]));
    // The watch's key, locked after its account as a call's debit does: its daily cap holds news
    // like a short balance, and what it is charged counts as the key's spend of the day (R19.22).
    const keyIds = [...new Set(due.flatMap((row) => (row.key_id === null ? [] : [row.key_id])))];
    const keys = new Map(
      (
        await tx<{ id: number; daily_cap: number | null; spent: number }[]>`
          SELECT id, daily_cap,
            CASE WHEN cap_day = (now() AT TIME ZONE 'UTC')::date THEN cap_day_spent ELSE 0 END AS spent
          FROM api_keys WHERE id = ANY(string_to_array(${ids(keyIds)}, ',')::bigint[]) ORDER BY id FOR UPDATE`
      ).map((key) => [key.id, { ...key, charged: 0 }]),
    );
    const entries: {
      delivery_id: number;
      account_id: number;
      key_id: number | null;
      amount: number;
      balance_after: number;
      request_id: string;
    }[] = [];
    const held: number[] = [];
    const heldAccounts = new Set<number>();
    for (const row of due) {
      const account = byId.get(row.account_id);
      if (account === undefined) continue;
      const key = row.key_id === null ? undefined : keys.get(row.key_id);
      const capped = key !== undefined && key.daily_cap !== null && key.spent + key.charged + price > key.daily_cap;
      if (account.balance < price || capped) {
        held.push(row.id);
        // The email says the balance is out of credits; a cap's hold ends by itself the next day.
        if (account.balance < price) heldAccounts.add(row.account_id);
        continue;
      }
      account.balance -= price;
      if (key !== undefined) key.charged += price;
      entries.push({
        delivery_id: row.id,
        account_id: row.account_id,
        key_id: row.key_id,
        amount: -price,
        balance_after: account.balance,
        request_id: deliveryRequestId(row.id),
      });
      const threshold = account.low_balance_threshold;
      if (account.low_balance_armed && threshold !== null && account.balance < threshold) account.alerted = true;
    }
    if (entries.length > 0) {
      const charged = [...byId.values()].filter((account) => entries.some((e) => e.account_id === account.id));
      await tx`
        WITH entries AS (
          SELECT * FROM json_to_recordset(${JSON.stringify(entries)}::text::json)
            AS e(delivery_id bigint, account_id bigint, key_id bigint, amount bigint, balance_after bigint,
                 request_id text)
        ), balances AS (
          UPDATE accounts a
          SET balance = b.balance, low_balance_armed = a.low_balance_armed AND NOT b.alerted
          FROM json_to_recordset(${JSON.stringify(charged)}::text::json)
            AS b(id bigint, balance bigint, alerted boolean)
          WHERE a.id = b.id
        ), charges AS (
          ${writeLedger(
            tx,
            'charge',
            {
              account_id: tx`account_id`,
              key_id: tx`key_id`,
              amount: tx`amount`,
              balance_after: tx`balance_after`,
              endpoint: WATCH_NEWS_OPERATION,
              request_id: tx`request_id`,
            },
            tx`entries`,
          )}
          RETURNING id, request_id
        )
        UPDATE watch_deliveries d SET billing = 'paid', charge_id = c.id
        FROM charges c JOIN entries e ON e.request_id = c.request_id
        WHERE d.id = e.delivery_id`;
      const spent = [...keys.values()].filter((key) => key.charged > 0).map(({ id, charged }) => ({ id, charged }));
      if (spent.length > 0)
        await tx`
          UPDATE api_keys k
          SET cap_day_spent = CASE WHEN k.cap_day = (now() AT TIME ZONE 'UTC')::date THEN k.cap_day_spent ELSE 0 END
              + s.charged,
            cap_day = (now() AT TIME ZONE 'UTC')::date
          FROM json_to_recordset(${JSON.stringify(spent)}::text::json) AS s(id bigint, charged bigint)
          WHERE k.id = s.id`;
      const alerted = charged.filter((account) => account.alerted);
      const alerts = alerted.map((a) => ({ id: a.id, balance: a.balance, threshold: a.low_balance_threshold }));
      if (alerted.length > 0)
        await tx`
          INSERT INTO balance_alerts (account_id, balance, threshold)
          SELECT id, balance, threshold
          FROM json_to_recordset(${JSON.stringify(alerts)}::text::json)
            AS b(id bigint, balance bigint, threshold bigint)`;
      // News no longer held: a later shortage is told again.
      await tx`
        DELETE FROM watch_hold_notices n
        WHERE n.account_id = ANY(string_to_array(${ids(charged.map((a) => a.id))}, ',')::bigint[])
          AND NOT EXISTS (SELECT FROM watch_deliveries d WHERE d.account_id = n.account_id AND d.billing = 'held')`;
    }
    let newlyHeld: BillingPass['newlyHeld'] = [];
    if (held.length > 0) {
      await tx`
        UPDATE watch_deliveries SET billing = 'held'
        WHERE id = ANY(string_to_array(${ids(held)}, ',')::bigint[]) AND billing = 'due'`;
      newlyHeld = (
        await tx<{ account_id: number; email: string | null }[]>`
          WITH noticed AS (
            INSERT INTO watch_hold_notices (account_id)
            SELECT unnest(string_to_array(${ids([...heldAccounts])}, ',')::bigint[])
            ON CONFLICT (account_id) DO NOTHING
            RETURNING account_id
          )
          SELECT n.account_id, (
            SELECT l.email FROM account_logins l WHERE l.account_id = n.account_id AND l.email_verified_at IS NOT NULL
          ) AS email
          FROM noticed n`
      ).map((row) => ({ accountId: row.account_id, email: row.email }));
    }
    return { charged: entries.length, held: held.length, newlyHeld };
  });
}

/**
 * Whether a delivery (`d`, its watch `w`, its account `a`) may still be charged: a deleted watch's
 * news and a disabled or deleted account's are never charged (R19.13, R12.19), nor wait a digest.
 */
function chargeable(sql: Sql | postgres.TransactionSql) {
  return sql`(w.deleted_at IS NULL AND a.disabled_at IS NULL)`;
}

/** Whether the watch's key (`k`, absent when none) has room for `price` more today under its daily cap. */
function capRoom(sql: Sql | postgres.TransactionSql, price: number) {
  return sql`(k.daily_cap IS NULL
    OR CASE WHEN k.cap_day = (now() AT TIME ZONE 'UTC')::date THEN k.cap_day_spent ELSE 0 END + ${price}
       <= k.daily_cap)`;
}

/** Records that the one email telling an account its news is held went out. */
export async function markHoldNoticeSent(sql: Sql, accountId: number): Promise<void> {
  await sql`UPDATE watch_hold_notices SET emailed_at = now() WHERE account_id = ${accountId}`;
}

/** One watch event as the payloads carry it. */
export interface NewsEvent {
  id: number;
  watchId: string;
  deliveryId: number;
  kind: 'domain' | 'advertiser';
  advertiserId: string;
  advertiser: string;
  landingDomain: string;
  firstSeen: string;
  landingDomainCount: number;
  foundAt: Date;
}

/** A watch as the payloads carry it. */
export interface NewsWatch {
  id: string;
  kind: 'domain' | 'advertiser';
  target: string;
  sandbox: boolean;
  createdAt: Date;
}

/** A delivery whose post is due, with its watch, its events and the webhook's current secret. */
export interface DuePost {
  id: number;
  accountId: number;
  url: string;
  attempts: number;
  createdAt: Date;
  billing: 'paid' | 'free';
  /** null: the webhook was removed or changed since the news was queued. */
  secret: string | null;
  watch: NewsWatch;
  events: NewsEvent[];
}

/** Takes up to `limit` posts that are due (billed, not yet accepted nor given up) for `leaseMs`. */
export async function takeDuePosts(sql: Sql, limit: number, leaseMs: number): Promise<DuePost[]> {
  const rows = await sql<
    {
      id: number;
      account_id: number;
      url: string;
      attempts: number;
      created_at: Date;
      billing: 'paid' | 'free';
      secret: string | null;
      watch_id: string;
      kind: 'domain' | 'advertiser';
      target: string;
      sandbox: boolean;
      watch_created_at: Date;
    }[]
  >`
    WITH taken AS (
      UPDATE watch_deliveries d
      SET locked_until = now() + ${leaseMs} * interval '1 millisecond'
      WHERE d.id IN (
        SELECT id FROM watch_deliveries
        WHERE webhook_url IS NOT NULL AND delivered_at IS NULL AND given_up_at IS NULL
          AND next_attempt_at <= now() AND billing IN ('paid', 'free')
          AND (locked_until IS NULL OR locked_until < now())
        ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING d.*
    )
    SELECT t.id, t.account_id, t.webhook_url AS url, t.attempts, t.created_at, t.billing, h.secret,
           w.id AS watch_id, w.kind, w.target, w.sandbox, w.created_at AS watch_created_at
    FROM taken t
    JOIN watches w ON w.id = t.watch_id
    LEFT JOIN alert_webhooks h ON h.account_id = t.account_id AND h.url = t.webhook_url
    ORDER BY t.id`;
  const events = await eventsOf(
    sql,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    attempts: row.attempts,
    createdAt: row.created_at,
    billing: row.billing,
    secret: row.secret,
    watch: {
      id: row.watch_id,
      kind: row.kind,
      target: row.target,
      sandbox: row.sandbox,
      createdAt: row.watch_created_at,
    },
    events: events.get(row.id) ?? [],
  }));
}

async function eventsOf(sql: Sql, deliveryIds: number[]): Promise<Map<number, NewsEvent[]>> {
  const byDelivery = new Map<number, NewsEvent[]>();
  if (deliveryIds.length === 0) return byDelivery;
  const rows = await sql<
    {
      id: number;
      watch_id: string;
      delivery_id: number;
      kind: 'domain' | 'advertiser';
      advertiser_id: string;
      advertiser: string;
      landing_domain: string;
      first_seen: string;
      landing_domain_count: number;
      found_at: Date;
    }[]
  >`
    SELECT e.id, e.watch_id::text, e.delivery_id, w.kind, e.advertiser_id, e.advertiser, e.landing_domain,
           to_char(e.first_seen, 'YYYY-MM-DD') AS first_seen, e.landing_domain_count, e.found_at
    FROM watch_events e JOIN watches w ON w.id = e.watch_id
    WHERE e.delivery_id = ANY(string_to_array(${ids(deliveryIds)}, ',')::bigint[])
    ORDER BY e.delivery_id, e.id`;
  for (const row of rows) {
    const list = byDelivery.get(row.delivery_id) ?? [];
    list.push({
      id: row.id,
      watchId: row.watch_id,
      deliveryId: row.delivery_id,
      kind: row.kind,
      advertiserId: row.advertiser_id,
      advertiser: row.advertiser,
      landingDomain: row.landing_domain,
      firstSeen: row.first_seen,
      landingDomainCount: row.landing_domain_count,
      foundAt: row.found_at,
    });
    byDelivery.set(row.delivery_id, list);
  }
  return byDelivery;
}

/** What one post came to, and what follows it. */
export interface PostOutcome {
  id: number;
  ok: boolean;
  status: number | null;
  error: string | null;
  /** The next attempt; null after a failure: given up. */
  retryAt: Date | null;
}

/**
 * Records the outcomes of many posts in one statement. A paid delivery given up (never accepted
 * after the last retry) is refunded: its charge given back, in the ledger as a refund of it.
 */
export async function recordPosts(sql: Sql, outcomes: PostOutcome[]): Promise<{ refunded: number }> {
  if (outcomes.length === 0) return { refunded: 0 };
  const given = await sql<{ id: number }[]>`
    UPDATE watch_deliveries d
    SET attempts = d.attempts + 1, locked_until = NULL, last_status = o.status, last_error = o.error,
        delivered_at = CASE WHEN o.ok THEN now() END,
        given_up_at = CASE WHEN NOT o.ok AND o.retry_at IS NULL THEN now() END,
        next_attempt_at = coalesce(o.retry_at, d.next_attempt_at)
    FROM json_to_recordset(${outcomesJson(outcomes)}::text::json)
      AS o(id bigint, ok boolean, status integer, error text, retry_at timestamptz)
    WHERE d.id = o.id
    RETURNING d.id, (d.given_up_at IS NOT NULL AND d.billing = 'paid') AS refund`;
  const toRefund = given.filter((row) => (row as unknown as { refund: boolean }).refund).map((row) => row.id);
  for (const id of toRefund) await refundDelivery(sql, id);
  return { refunded: toRefund.length };
}

/** Gives a paid delivery's charge back, once (the delivery's state is the guard). */
async function refundDelivery(sql: Sql, deliveryId: number): Promise<void> {
  await sql.begin(async (tx) => {
    const [delivery] = await tx<{ account_id: number; charge_id: number }[]>`
      SELECT account_id, charge_id FROM watch_deliveries WHERE id = ${deliveryId} AND billing = 'paid' FOR UPDATE`;
    if (!delivery) return;
    await tx`
      WITH charge AS (
        SELECT id, key_id, -amount AS amount, ${deliveryRequestId(deliveryId)}::text AS request_id,
               channel, endpoint, created_at
        FROM ledger WHERE id = ${delivery.charge_id}
      ), balance AS (
        UPDATE accounts a SET balance = a.balance + c.amount
        FROM charge c WHERE a.id = ${delivery.account_id}
        RETURNING a.id AS account_id, a.balance
      ), unspent AS (
        -- As a refunded call's: no longer part of its key's spend of that day, after the account's lock.
        UPDATE api_keys k SET cap_day_spent = greatest(k.cap_day_spent - c.amount, 0)
        FROM charge c, balance b
        WHERE k.id = c.key_id AND k.cap_day = (c.created_at AT TIME ZONE 'UTC')::date
      ), refunded AS (
        ${writeLedger(
          tx,
          'refund',
          {
            account_id: tx`b.account_id`,
            key_id: tx`c.key_id`,
            amount: tx`c.amount`,
            balance_after: tx`b.balance`,
            endpoint: tx`c.endpoint`,
            request_id: tx`c.request_id`,
            refund_of: tx`c.id`,
            channel: tx`c.channel`,
          },
          tx`charge c CROSS JOIN balance b`,
        )}
        RETURNING id
      )
      UPDATE watch_deliveries SET billing = 'refunded', refund_id = (SELECT id FROM refunded)
      WHERE id = ${deliveryId}`;
  });
}

/** An account's digest of one load's news, due to be mailed. */
export interface DueDigest {
  id: number;
  accountId: number;
  attempts: number;
  /** The account's verified sign-in address; null when it has none (nothing to mail). */
  email: string | null;
  deliveries: { watch: NewsWatch; events: NewsEvent[] }[];
}

/**
 * Takes up to `limit` digests that are due for `leaseMs`: those whose deliveries are all billed
 * (a held one keeps its digest until credits arrive).
 */
export async function takeDueDigests(sql: Sql, limit: number, leaseMs: number): Promise<DueDigest[]> {
  const digests = await sql<{ id: number; account_id: number; attempts: number; email: string | null }[]>`
    WITH taken AS (
      UPDATE watch_digests g
      SET locked_until = now() + ${leaseMs} * interval '1 millisecond'
      WHERE g.id IN (
        SELECT id FROM watch_digests x
        WHERE sent_at IS NULL AND given_up_at IS NULL AND next_attempt_at <= now()
          AND (locked_until IS NULL OR locked_until < now())
          AND NOT EXISTS (
            SELECT FROM watch_deliveries d JOIN watches w ON w.id = d.watch_id JOIN accounts a ON a.id = d.account_id
            WHERE d.digest_id = x.id AND d.billing IN ('due', 'held') AND ${chargeable(sql)})
        ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING g.*
    )
    SELECT t.id, t.account_id, t.attempts, (
      SELECT l.email FROM account_logins l WHERE l.account_id = t.account_id AND l.email_verified_at IS NOT NULL
    ) AS email
    FROM taken t ORDER BY t.id`;
  if (digests.length === 0) return [];
  const deliveries = await sql<
    {
      id: number;
      digest_id: number;
      watch_id: string;
      kind: 'domain' | 'advertiser';
      target: string;
      sandbox: boolean;
      created_at: Date;
    }[]
  >`
    SELECT d.id, d.digest_id, w.id AS watch_id, w.kind, w.target, w.sandbox, w.created_at
    FROM watch_deliveries d JOIN watches w ON w.id = d.watch_id
    WHERE d.digest_id = ANY(string_to_array(${ids(digests.map((d) => d.id))}, ',')::bigint[])
      AND d.billing IN ('paid', 'free', 'refunded')
    ORDER BY d.id`;
  const events = await eventsOf(
    sql,
    deliveries.map((d) => d.id),
  );
  return digests.map((digest) => ({
    id: digest.id,
    accountId: digest.account_id,
    attempts: digest.attempts,
    email: digest.email,
    deliveries: deliveries
      .filter((d) => d.digest_id === digest.id)
      .map((d) => ({
        watch: { id: d.watch_id, kind: d.kind, target: d.target, sandbox: d.sandbox, createdAt: d.created_at },
        events: events.get(d.id) ?? [],
      })),
  }));
}

/** Attempts' outcomes as the JSON their statements read, each next attempt as `retry_at`. */
function outcomesJson(outcomes: readonly { retryAt: Date | null }[]): string {
  return JSON.stringify(outcomes.map((o) => ({ ...o, retry_at: o.retryAt?.toISOString() ?? null })));
}

/** What one digest's attempt came to, and what follows it. */
export interface DigestOutcome {
  id: number;
  ok: boolean;
  error: string | null;
  /** The next attempt; null after a failure: given up. */
  retryAt: Date | null;
}

/** Records the attempts of many digests in one statement: sent, retried at `retryAt`, or given up. */
export async function recordDigests(sql: Sql, outcomes: DigestOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  await sql`
    UPDATE watch_digests g
    SET attempts = g.attempts + 1, locked_until = NULL, last_error = o.error,
        sent_at = CASE WHEN o.ok THEN now() END,
        given_up_at = CASE WHEN NOT o.ok AND o.retry_at IS NULL THEN now() END,
        next_attempt_at = coalesce(o.retry_at, g.next_attempt_at)
    FROM json_to_recordset(${outcomesJson(outcomes)}::text::json)
      AS o(id bigint, ok boolean, error text, retry_at timestamptz)
    WHERE g.id = o.id`;
}

/** The live sandbox watches' kinds and targets (the sandbox replay makes news for each). */
export async function sandboxWatchTargets(sql: Sql): Promise<{ kind: 'domain' | 'advertiser'; target: string }[]> {
  return sql<{ kind: 'domain' | 'advertiser'; target: string }[]>`
    SELECT DISTINCT kind, target FROM public.watches WHERE sandbox AND deleted_at IS NULL ORDER BY kind, target`;
}

/**
 * The account's live watch `watchId` of the dataset of the caller's key (a test key sees sandbox
 * watches only, a live key live ones); null for any other (unknown, another account's, deleted).
 */
export async function liveWatchOf(
  sql: Sql,
  { accountId, watchId, sandbox }: { accountId: number; watchId: string; sandbox: boolean },
): Promise<NewsWatch | null> {
  const [row] = await sql<
    { id: string; kind: 'domain' | 'advertiser'; target: string; sandbox: boolean; created_at: Date }[]
  >`
    SELECT id::text, kind, target, sandbox, created_at FROM public.watches
    WHERE id = ${watchId}::uuid AND account_id = ${accountId} AND sandbox = ${sandbox} AND deleted_at IS NULL`;
  return row
    ? { id: row.id, kind: row.kind, target: row.target, sandbox: row.sandbox, createdAt: row.created_at }
    : null;
}
