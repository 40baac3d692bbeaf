import type { Sql } from '../data/client.ts';
import { markDelivered } from '../data/service-runs.ts';

/** Marks gathered before a statement is sent: a few milliseconds of answers share one statement. */
const GATHER_MS = 5;
const RETRY_MS = 1_000;
/** The most charges one statement marks. */
const MAX_PER_STATEMENT = 1_000;

/**
 * Delivery marks, written off the request path: an answer that left the process is recorded in
 * batches, one statement in flight at a time, so a charged call costs no extra round trip. A mark
 * not yet written when the process dies leaves its charge looking undelivered, and the recovery
 * pass refunds it: the crash window costs the service (a few milliseconds of answers), never the
 * caller.
 */
export class DeliveryMarks {
  readonly #pending = new Set<number>();
  #timer: NodeJS.Timeout | undefined;
  #writing: Promise<void> | undefined;

  constructor(private readonly sql: Sql) {}

  get pending(): number {
    return this.#pending.size;
  }

  delivered(chargeId: number): void {
    this.#pending.add(chargeId);
    this.#schedule(GATHER_MS);
  }

  /** Writes every mark gathered so far (shutdown, tests); a failure is thrown and the marks kept. */
  async flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#writing;
    while (this.#pending.size > 0) await this.#write();
  }

  #schedule(delayMs: number): void {
    if (this.#timer !== undefined || this.#writing !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#write().then(
        () => this.#pending.size > 0 && this.#schedule(0),
        () => this.#schedule(RETRY_MS),
      );
    }, delayMs);
    this.#timer.unref();
  }

  #write(): Promise<void> {
    const batch = [...this.#pending].slice(0, MAX_PER_STATEMENT);
    for (const chargeId of batch) this.#pending.delete(chargeId);
    this.#writing = markDelivered(this.sql, batch)
      .catch((error: unknown) => {
        for (const chargeId of batch) this.#pending.add(chargeId);
        throw error;
      })
      .finally(() => {
        this.#writing = undefined;
      });
    return this.#writing;
  }
}
