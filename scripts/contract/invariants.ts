import { contractOperations } from '../../src/contract/operations.ts';
import type { Sql } from '../../src/data/client.ts';
import type { FuzzRecord } from './schemathesis.ts';

export interface BillingCheck {
  problems: string[];
  /** Responses that cost credits (200 and data 404 of billed operations) and what they cost. */
  chargedResponses: number;
  creditsCharged: number;
  /** Responses that must cost nothing (400, 401, 402, 405, 422, 429) and indeed did not. */
  freeResponses: number;
  /** Replays of an earlier charged answer (same Idempotency-Key), which cost nothing. */
  replayedResponses: number;
}

const PRICE = new Map(
  contractOperations.map((operation) => [`${operation.method} ${operation.path}`, operation.creditCost]),
);
const FREE_STATUSES = new Set([400, 401, 402, 403, 405, 406, 422, 429]);

/** The ledger row id before a run, so the run's own rows can be told apart. */
export async function lastLedgerId(sql: Sql): Promise<number> {
  const [row] = await sql<{ id: number }[]>`SELECT coalesce(max(id), 0)::bigint AS id FROM ledger`;
  return row.id;
}

/** Every account whose balance is not the sum of its ledger. */
export async function ledgerProblems(sql: Sql): Promise<string[]> {
  const drifted = await sql<{ id: number; balance: number; ledger: number }[]>`
    SELECT a.id, a.balance, coalesce(sum(l.amount), 0)::bigint AS ledger
    FROM accounts a LEFT JOIN ledger l ON l.account_id = a.id
    GROUP BY a.id HAVING a.balance <> coalesce(sum(l.amount), 0)`;
  return drifted.map(
    (account) => `account ${account.id}: balance ${account.balance} but the ledger sums to ${account.ledger}`,
  );
}

/**
 * The billing rules, checked on the database after the fuzzing run against what every response
 * said: each balance equals its ledger; a 400, 401, 402, 405, 422 or 429 left no ledger row; a
 * replay (same Idempotency-Key) left none either; each other 200 and data 404 of a billed
 * operation left exactly one charge of its price; and no charge exists that no charged response
 * explains.
 */
export async function checkBilling(sql: Sql, records: FuzzRecord[], sinceLedgerId: number): Promise<BillingCheck> {
  const problems = await ledgerProblems(sql);

  const rows = await sql<{ request_id: string; charges: number; charged: number; refunds: number }[]>`
    SELECT request_id,
           count(*) FILTER (WHERE kind = 'charge')::integer AS charges,
           coalesce(-sum(amount) FILTER (WHERE kind = 'charge'), 0)::bigint AS charged,
           count(*) FILTER (WHERE kind = 'refund')::integer AS refunds
    FROM ledger WHERE id > ${sinceLedgerId} AND request_id IS NOT NULL GROUP BY request_id`;
  const ledger = new Map(rows.map((row) => [row.request_id, row]));

  let chargedResponses = 0;
  let creditsCharged = 0;
  let freeResponses = 0;
  let replayedResponses = 0;
  const explained = new Set<string>();
  for (const record of records) {
    if (record.request_id === null) continue;
    const entry = ledger.get(record.request_id);
    const price = PRICE.get(record.operation) ?? 0;
    const where = `${record.method} ${record.operation} → ${record.status} (request ${record.request_id})`;
    if (FREE_STATUSES.has(record.status) || record.replayed) {
      if (record.replayed) replayedResponses++;
      else freeResponses++;
      if (entry)
        problems.push(
          `${where}: charged ${entry.charged} credits, but ${record.replayed ? 'a replay' : record.status} is free`,
        );
    } else if ((record.status === 200 || record.status === 404) && price > 0) {
      explained.add(record.request_id);
      if (entry?.charges !== 1 || entry.charged !== price || entry.refunds !== 0) {
        problems.push(`${where}: expected one charge of ${price}, the ledger has ${JSON.stringify(entry ?? null)}`);
      } else {
        chargedResponses++;
        creditsCharged += price;
      }
    } else if (entry) {
      problems.push(`${where}: a free answer left ledger rows ${JSON.stringify(entry)}`);
    }
  }
  for (const [requestId, entry] of ledger) {
    if (!explained.has(requestId))
      problems.push(`request ${requestId}: ledger rows ${JSON.stringify(entry)} that no charged response explains`);
  }
  return { problems, chargedResponses, creditsCharged, freeResponses, replayedResponses };
}
