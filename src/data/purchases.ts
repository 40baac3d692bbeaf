import type { CreditPack } from '../config.ts';
import { creditAccount } from './accounts.ts';
import type { Sql } from './client.ts';
import { writeLedger } from './ledger-entries.ts';

/** Records a Checkout Session made for an account: what its payment will credit. */
export async function recordCheckout(
  sql: Sql,
  { sessionId, accountId, pack }: { sessionId: string; accountId: number; pack: CreditPack },
): Promise<void> {
  await sql`
    INSERT INTO credit_purchases (checkout_session_id, account_id, pack_id, credits, amount, currency)
    VALUES (${sessionId}, ${accountId}, ${pack.id}, ${pack.credits}, ${pack.price}, ${pack.currency})`;
}

/** One of the account's Checkout Sessions, as the credits page reports it after Stripe sends the buyer back. */
export interface CheckoutState {
  packId: string;
  credits: number;
  credited: boolean;
}

/** The account's Checkout Session `sessionId`; null when it is unknown or another account's. */
export async function checkoutOfAccount(sql: Sql, accountId: number, sessionId: string): Promise<CheckoutState | null> {
  const [row] = await sql<{ pack_id: string; credits: number; credited: boolean }[]>`
    SELECT pack_id, credits, credited_at IS NOT NULL AS credited FROM credit_purchases
    WHERE checkout_session_id = ${sessionId} AND account_id = ${accountId}`;
  return row ? { packId: row.pack_id, credits: row.credits, credited: row.credited } : null;
}

/**
 * Records that Stripe says the payment `paymentId` belongs to the session: later refunds and
 * disputes naming it find the purchase. Nothing when the session is not one of this service's.
 */
export async function recordSessionPayment(sql: Sql, sessionId: string, paymentId: string): Promise<void> {
  await sql`
    INSERT INTO credit_purchase_payments (payment_id, checkout_session_id)
    SELECT ${paymentId}, checkout_session_id FROM credit_purchases WHERE checkout_session_id = ${sessionId}
    ON CONFLICT (payment_id) DO NOTHING`;
}

export type CheckoutOutcome =
  | { outcome: 'unknown' }
  | { outcome: 'not paid yet' }
  | { outcome: 'credited' | 'already credited'; accountId: number; credits: number; paymentReference: string };

/**
 * Applies an event about a Checkout Session: the payment ids it names are recorded for the
 * session (refunds and disputes find it by any of them), and a paid session credits its pack,
 * once, whatever ids its events name (R13.2). The credit's reference is the first id recorded, or
 * the session itself when none was. The purchase row is locked, so concurrent deliveries wait.
 */
export async function applyCheckoutEvent(
  sql: Sql,
  sessionId: string,
  { paymentIds, paid }: { paymentIds: string[]; paid: boolean },
): Promise<CheckoutOutcome> {
  return (await sql.begin(async (tx) => {
    const [purchase] = await tx<
      { account_id: number; credits: number; credited_at: Date | null; payment_reference: string | null }[]
    >`
      SELECT account_id, credits, credited_at, payment_reference FROM credit_purchases
      WHERE checkout_session_id = ${sessionId} FOR UPDATE`;
    if (!purchase) return { outcome: 'unknown' };
    if (paymentIds.length > 0)
      // In the event's order; an id another session already holds stays that session's. A list of
      // values, not an array parameter: the service's request pool reads no array types.
      await tx`
        INSERT INTO credit_purchase_payments
        ${tx(paymentIds.map((id) => ({ payment_id: id, checkout_session_id: sessionId })))}
        ON CONFLICT (payment_id) DO NOTHING`;
    if (!paid) return { outcome: 'not paid yet' };
    const credited = { accountId: purchase.account_id, credits: purchase.credits };
    if (purchase.credited_at !== null)
      return { outcome: 'already credited', ...credited, paymentReference: purchase.payment_reference };
    const [first] = await tx<{ payment_id: string }[]>`
      SELECT payment_id FROM credit_purchase_payments WHERE checkout_session_id = ${sessionId}
      ORDER BY recorded LIMIT 1`;
    const paymentReference = first?.payment_id ?? sessionId;
    const added = await creditAccount(tx, purchase.account_id, purchase.credits, paymentReference);
    await tx`
      UPDATE credit_purchases SET payment_reference = ${paymentReference}, credited_at = now()
      WHERE checkout_session_id = ${sessionId}`;
    return { outcome: added.added ? 'credited' : 'already credited', ...credited, paymentReference };
  })) as CheckoutOutcome;
}

export type Reversal =
  | { outcome: 'not credited' }
  | { outcome: 'nothing more' }
  | { outcome: 'reversed'; paymentReference: string; accountId: number; taken: number; owed: number; balance: number };

/**
 * Takes back the credits of a refunded or disputed payment, whose purchase is found by any id its
 * session's events named, or by the session (R13.3): in proportion to the amount refunded
 * (Stripe reports it cumulatively), all of them for a dispute. Only what was not taken back yet
 * is taken, so repeated and reordered events change nothing more; the purchase row is locked, so
 * concurrent ones wait. The balance gives what it has; the rest is recorded as owed.
 */
export async function reversePayment(
  sql: Sql,
  paymentIds: string[],
  { amountRefunded = 0, disputed = false }: { amountRefunded?: number; disputed?: boolean },
  eventId: string,
): Promise<Reversal> {
  return (await sql.begin(async (tx) => {
    const [purchase] = await tx<
      {
        checkout_session_id: string;
        payment_reference: string;
        account_id: number;
        credits: number;
        amount: number;
        amount_refunded: number;
        disputed_at: Date | null;
        credits_reversed: number;
      }[]
    >`
      SELECT checkout_session_id, payment_reference, account_id, credits, amount, amount_refunded, disputed_at,
        credits_reversed
      FROM credit_purchases
      WHERE credited_at IS NOT NULL
        AND (checkout_session_id IN ${tx(paymentIds)}
          OR checkout_session_id IN (
            SELECT checkout_session_id FROM credit_purchase_payments WHERE payment_id IN ${tx(paymentIds)}))
      ORDER BY checkout_session_id LIMIT 1
      FOR UPDATE`;
    if (!purchase) return { outcome: 'not credited' };
    const refunded = Math.min(Math.max(purchase.amount_refunded, amountRefunded), purchase.amount);
    const isDisputed = disputed || purchase.disputed_at !== null;
    // Rounded down: a partial refund never takes back more than its share.
    const due = isDisputed ? purchase.credits : Math.floor((purchase.credits * refunded) / purchase.amount);
    const more = due - purchase.credits_reversed;
    await tx`
      UPDATE credit_purchases
      SET amount_refunded = ${refunded},
        disputed_at = CASE WHEN ${isDisputed} THEN coalesce(disputed_at, now()) END,
        credits_reversed = greatest(credits_reversed, ${due})
      WHERE checkout_session_id = ${purchase.checkout_session_id}`;
    if (more <= 0) return { outcome: 'nothing more' };
    const [account] = await tx<{ balance: number }[]>`
      SELECT balance FROM accounts WHERE id = ${purchase.account_id} FOR UPDATE`;
    const taken = Math.min(more, account.balance);
    const [row] = await tx<{ balance: number }[]>`
      WITH taken AS (
        UPDATE accounts SET balance = balance - ${taken} WHERE id = ${purchase.account_id} RETURNING id, balance
      )
      ${writeLedger(
        tx,
        'reversal',
        {
          account_id: tx`taken.id`,
          amount: -taken,
          balance_after: tx`taken.balance`,
          request_id: eventId,
          reversal_of: tx`p.id`,
          owed: more - taken,
        },
        tx`taken, ledger p WHERE p.payment_reference = ${purchase.payment_reference}`,
      )}
      RETURNING balance_after AS balance`;
    return {
      outcome: 'reversed',
      paymentReference: purchase.payment_reference,
      accountId: purchase.account_id,
      taken,
      owed: more - taken,
      balance: row.balance,
    };
  })) as Reversal;
}

/** Accounts that owe credits: reversals the balance could not cover (the operator's list). */
export async function owedCredits(sql: Sql): Promise<{ accountId: number; owed: number }[]> {
  const rows = await sql<{ account_id: number; owed: number }[]>`
    SELECT account_id, sum(owed)::bigint AS owed FROM ledger
    WHERE kind = 'reversal' AND owed > 0
    GROUP BY account_id ORDER BY account_id`;
  return rows.map((row) => ({ accountId: row.account_id, owed: row.owed }));
}
