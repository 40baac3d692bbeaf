import type { Sql } from './client.ts';

/** How many test events may be sent in an hour: by one account, and to one host by all accounts. */
export interface TestEventLimits {
  perAccount: number;
  perHost: number;
}

/** A test event as the alerts page lists it. */
export interface TestEventListing {
  url: string;
  eventId: string;
  sentAt: Date;
  /** null while the post runs. */
  doneAt: Date | null;
  status: number | null;
  error: string | null;
}

/**
 * Records a test event about to be posted, when the last hour's events leave room for it: counted
 * and written under the account's and the host's locks, so parallel clicks never pass a limit
 * together. Returns the event's row, or which limit refused it.
 */
export async function takeTestEvent(
  sql: Sql,
  event: { accountId: number; url: string; host: string; eventId: string },
  limits: TestEventLimits,
): Promise<{ id: number } | { limited: 'account' | 'host' }> {
  return sql.begin(async (tx) => {
    // The account's lock, then the host's, always in that order.
    await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`alert-test-account:${event.accountId}`}, 0))`;
    await tx`SELECT pg_advisory_xact_lock(hashtextextended(${`alert-test-host:${event.host}`}, 0))`;
    const [counts] = await tx<{ account: number; host: number }[]>`
      SELECT
        (SELECT count(*) FROM alert_test_events
         WHERE account_id = ${event.accountId} AND sent_at > now() - interval '1 hour')::integer AS account,
        (SELECT count(*) FROM alert_test_events
         WHERE host = ${event.host} AND sent_at > now() - interval '1 hour')::integer AS host`;
    if (counts.account >= limits.perAccount) return { limited: 'account' as const };
    if (counts.host >= limits.perHost) return { limited: 'host' as const };
    const [row] = await tx<{ id: number }[]>`
      INSERT INTO alert_test_events (account_id, url, host, event_id)
      VALUES (${event.accountId}, ${event.url}, ${event.host}, ${event.eventId})
      RETURNING id`;
    return { id: row.id };
  });
}

/** What the post of a test event came to. */
export async function recordTestEvent(
  sql: Sql,
  id: number,
  outcome: { status: number | null; error: string | null },
): Promise<void> {
  await sql`
    UPDATE alert_test_events SET status = ${outcome.status}, error = ${outcome.error}, done_at = now()
    WHERE id = ${id}`;
}

type TestEventRow = {
  url: string;
  event_id: string;
  sent_at: Date;
  done_at: Date | null;
  status: number | null;
  error: string | null;
};

const listingOf = (row: TestEventRow): TestEventListing => ({
  url: row.url,
  eventId: row.event_id,
  sentAt: row.sent_at,
  doneAt: row.done_at,
  status: row.status,
  error: row.error,
});

/** The account's latest test events, newest first. */
export async function testEventsOf(sql: Sql, accountId: number, limit = 5): Promise<TestEventListing[]> {
  const rows = await sql<TestEventRow[]>`
    SELECT url, event_id, sent_at, done_at, status, error FROM alert_test_events
    WHERE account_id = ${accountId} ORDER BY id DESC LIMIT ${limit}`;
  return rows.map(listingOf);
}

/** One of the account's test events by its event id; null when the account sent none by that id. */
export async function testEventOf(sql: Sql, accountId: number, eventId: string): Promise<TestEventListing | null> {
  const [row] = await sql<TestEventRow[]>`
    SELECT url, event_id, sent_at, done_at, status, error FROM alert_test_events
    WHERE account_id = ${accountId} AND event_id = ${eventId} ORDER BY id DESC LIMIT 1`;
  return row ? listingOf(row) : null;
}
