import type postgres from 'postgres';
import type { Sql } from './client.ts';

/** A value of a ledger row: an SQL expression over the statement's own rows, or a parameter. */
type Value = postgres.Fragment | number | string | null;

/** What each kind of row written from TypeScript carries (docs/product-rules.md R6.11). */
interface EntryOf {
  /** The first live key's grant. */
  grant: { account_id: Value; key_id: Value; amount: Value; balance_after: Value };
  /**
   * A watch delivery's charge (docs/product-rules.md R19.22): the watch's key, the operation
   * watchNews, and the delivery as request id. A call's charge is written by debit_credits.
   */
  charge: { account_id: Value; key_id: Value; amount: Value; balance_after: Value; endpoint: Value; request_id: Value };
  /** Credits bought or added by the operator, under their payment reference. */
  purchase: { account_id: Value; amount: Value; balance_after: Value; payment_reference: Value };
  /** A charge given back: it names the charge, its key and endpoint, and the refunding request. */
  refund: {
    account_id: Value;
    key_id: Value;
    amount: Value;
    balance_after: Value;
    endpoint: Value;
    request_id: Value;
    refund_of: Value;
    /** The charge's channel (http or mcp): a refund came the way its call did. */
    channel: Value;
  };
  /** Credits of a refunded or disputed purchase taken back, and what the balance could not cover. */
  reversal: {
    account_id: Value;
    amount: Value;
    balance_after: Value;
    request_id: Value;
    reversal_of: Value;
    owed: Value;
  };
}

/**
 * The statement that writes ledger rows of one kind, one per row of `from`: every row TypeScript
 * adds to the ledger is written by this. Callers end a statement with it, after the CTE that
 * moves the balance, so the change and its row are one statement (R6.11), and may add a
 * RETURNING. The charges of calls are written by debit_credits (db/functions/debit_credits.sql)
 * itself, in the statement that checks the key; those of watch deliveries here.
 */
export function writeLedger<Kind extends keyof EntryOf>(
  sql: Sql | postgres.TransactionSql,
  kind: Kind,
  entry: EntryOf[Kind],
  from: postgres.Fragment,
): postgres.Fragment {
  const values = entry as Record<string, Value>;
  const columns = Object.keys(values);
  const listed = columns.reduce((list, column) => sql`${list}, ${values[column]}`, sql`${kind}`);
  // The columns are EntryOf's keys, plain names; a helper here would be read as a VALUES list.
  return sql`INSERT INTO ledger (${sql.unsafe(['kind', ...columns].join(', '))}) SELECT ${listed} FROM ${from}`;
}
