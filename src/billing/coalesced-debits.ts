import type { Sql } from '../db/client.ts';
import { type Call, type DebitRequest, type DebitResult, debitCalls } from '../db/billing.ts';

/** The most calls one debit statement carries; a longer queue is drained in several. */
const MAX_CALLS_PER_STATEMENT = 256;

interface PendingCall {
  call: Call;
  settle: (outcome: { result: DebitResult } | { error: unknown }) => void;
}

/**
 * Debits with at most one statement in flight per key. A call that finds its key's statement
 * still running waits, and all calls that waited go together in the next statement.
 *
 * Why: every debit of one account updates the same balance row and holds its lock until its
 * commit is flushed, so calls of a hot account would otherwise run one commit at a time however
 * many connections there are. Coalesced, N waiting calls cost one statement and one commit, and
 * each still gets its own ledger row and exact balance. A call with no company goes straight to
 * the database, so a lone call waits for nothing, and no call is answered before the commit that
 * holds its charge has returned.
 */
export class CoalescedDebits {
  /** Per key with a statement in flight: the calls that arrived since, in arrival order. */
  readonly #waitingByKey = new Map<string, PendingCall[]>();

  constructor(private readonly sql: Sql) {}

  debit({ keyHash, ...call }: DebitRequest): Promise<DebitResult> {
    return new Promise((resolve, reject) => {
      const pending: PendingCall = {
        call,
        settle: (outcome) => ('result' in outcome ? resolve(outcome.result) : reject(outcome.error)),
      };
      const lane = keyHash.toString('hex');
      const waiting = this.#waitingByKey.get(lane);
      if (waiting) {
        waiting.push(pending);
        return;
      }
      this.#waitingByKey.set(lane, []);
      void this.#run(lane, keyHash, [pending]);
    });
  }

  async #run(lane: string, keyHash: Buffer, batch: PendingCall[]): Promise<void> {
    try {
      const results = await debitCalls(this.sql, keyHash, batch.map((pending) => pending.call));
      batch.forEach((pending, index) => pending.settle({ result: results[index] }));
    } catch (error) {
      // Nothing of a failed statement was committed: every call in it was charged nothing.
      for (const pending of batch) pending.settle({ error });
    }
    const waiting = this.#waitingByKey.get(lane)!;
    if (waiting.length === 0) {
      this.#waitingByKey.delete(lane);
      return;
    }
    void this.#run(lane, keyHash, waiting.splice(0, MAX_CALLS_PER_STATEMENT));
  }
}
