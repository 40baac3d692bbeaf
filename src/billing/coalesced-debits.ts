import { type DebitRequest, type DebitResult, debitCalls } from '../data/billing.ts';
import type { Sql } from '../data/client.ts';

/** The most calls one debit statement carries; a longer queue is drained in several. */
const MAX_CALLS_PER_STATEMENT = 256;

/**
 * How long a debit statement may go unanswered before its calls fail as "outcome unknown" (503,
 * their refunds owed and matched by call id) and the next statement goes. Longer than any
 * statement timeout the service runs with. postgres.js can strand a query whose connection the
 * server terminated mid-statement: it never settles (porsager/postgres #1195, #1199), and with one
 * statement in flight every later debit would wait behind it for ever.
 */
export const DEBIT_DEADLINE_MS = 10_000;

interface PendingCall {
  request: DebitRequest;
  settle: (outcome: { result: DebitResult } | { error: unknown }) => void;
}

/**
 * Debits with one statement in flight at a time. A call that finds a statement running waits,
 * and all calls that waited go together, in arrival order, in the next statement.
 *
 * Why: a debit is a durable write, so each one alone costs a round trip, a statement and a commit
 * flush, and every debit of one account also holds that account's row lock until its commit is
 * flushed, so calls of a hot account would run one commit at a time however many connections
 * there are. Coalesced, N waiting calls (of any keys) cost one statement and one commit, and each
 * still gets its own ledger row and its exact balance. A call with no company goes straight to
 * the database, so a lone call waits for nothing, and no call is answered before the commit that
 * holds its charge has returned.
 */
export class CoalescedDebits {
  /** The calls that arrived while a statement was in flight, in arrival order; null when none is. */
  #waiting: PendingCall[] | null = null;

  constructor(
    private readonly sql: Sql,
    private readonly deadlineMs = DEBIT_DEADLINE_MS,
  ) {}

  debit(request: DebitRequest): Promise<DebitResult> {
    return new Promise((resolve, reject) => {
      const pending: PendingCall = {
        request,
        settle: (outcome) => ('result' in outcome ? resolve(outcome.result) : reject(outcome.error)),
      };
      if (this.#waiting !== null) {
        this.#waiting.push(pending);
        return;
      }
      this.#waiting = [];
      void this.#run([pending]);
    });
  }

  async #run(batch: PendingCall[]): Promise<void> {
    try {
      const results = await withDeadline(
        debitCalls(
          this.sql,
          batch.map((pending) => pending.request),
        ),
        this.deadlineMs,
      );
      for (const [index, pending] of batch.entries()) pending.settle({ result: results[index] });
    } catch (error) {
      // Every call of the statement fails with it; when the statement may still have committed
      // (a lost connection), billing owes each call its refund (./paid-call.ts, `oweUncertain` in ./billing.ts).
      for (const pending of batch) pending.settle({ error });
    }
    const waiting = this.#waiting!;
    if (waiting.length === 0) {
      this.#waiting = null;
      return;
    }
    void this.#run(waiting.splice(0, MAX_CALLS_PER_STATEMENT));
  }
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(Object.assign(new Error(`the debit statement did not answer within ${ms} ms`), { code: 'ETIMEDOUT' })),
      ms,
    );
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
