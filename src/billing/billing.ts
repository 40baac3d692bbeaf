import { type DebitRequest, type DebitResult, findCaller, type Refund, refund } from '../data/billing.ts';
import type { Sql } from '../data/client.ts';
import type { Metrics } from '../observability/metrics.ts';
import { CoalescedDebits } from './coalesced-debits.ts';
import { DeliveryMarks } from './delivery-marks.ts';
import { KeyUse } from './key-use.ts';
import { PendingRefunds } from './pending-refunds.ts';
import { Recovery } from './recovery.ts';

export interface BillingOptions {
  /** The service's clock (Idempotency-Key lifetimes follow it). */
  now: () => Date;
  metrics: Pick<Metrics, 'creditsCharged' | 'creditsRefunded'>;
  /** Refunds owed while the database is away; in memory only unless the service gives them a folder. */
  refunds?: PendingRefunds;
  /** How long an Idempotency-Key holds its charge for a retry. */
  keyLifetimeMs: number;
  log?: (line: string) => void;
}

/**
 * The money of every call, in one place: debits (coalesced), refunds (made now, or owed until the
 * database is back), delivery marks, and the recovery of charges nobody received. Calls pay
 * through ./paid-call.ts, whose HTTP edge is http/billing.ts.
 */
export class Billing {
  readonly refunds: PendingRefunds;
  readonly #debits: CoalescedDebits;
  readonly #marks: DeliveryMarks;
  readonly #recovery: Recovery;
  readonly #metrics: BillingOptions['metrics'];
  /** When each key was last used (the account page shows it). */
  readonly keyUse: KeyUse;

  constructor(
    private readonly sql: Sql,
    { now, metrics, refunds = new PendingRefunds(sql), keyLifetimeMs, log = () => {} }: BillingOptions,
  ) {
    this.refunds = refunds;
    this.#metrics = metrics;
    this.#debits = new CoalescedDebits(sql);
    this.#marks = new DeliveryMarks(sql);
    this.keyUse = new KeyUse(sql);
    this.#recovery = new Recovery(sql, {
      now,
      keyLifetimeMs,
      log,
      refunded: (endpoint, credits) => metrics.creditsRefunded(endpoint, credits),
    });
  }

  /** The run this process's charges belong to. */
  get runId(): string {
    return this.#recovery.runId;
  }

  /** Registers the run and recovers what dead runs left; the service calls it before it takes calls. */
  start(): Promise<void> {
    return this.#recovery.start();
  }

  /** Writes the delivery marks still gathered and ends the run. */
  async stop(): Promise<void> {
    await this.#marks.flush();
    await this.keyUse.flush();
    await this.#recovery.stop();
  }

  /** One recovery pass now (tests; the service runs them on its own). */
  recover(): Promise<number> {
    return this.#recovery.sweep();
  }

  /** Writes the delivery marks gathered so far (tests; the service writes them on its own). */
  flushDeliveryMarks(): Promise<void> {
    return this.#marks.flush();
  }

  async debit(request: Omit<DebitRequest, 'runId'>): Promise<DebitResult> {
    const result = await this.#debits.debit({ ...request, runId: this.runId });
    if (result.outcome !== 'unauthorized') this.keyUse.used(result.caller.keyId);
    if (result.outcome === 'debited' && result.chargeId !== null)
      this.#metrics.creditsCharged(request.endpoint, request.price);
    return result;
  }

  /** Refunds a charge now; null when the database cannot take it now, and it is owed instead. */
  async refund(chargeId: number, requestId: string): Promise<Refund | null> {
    try {
      const made = await refund(this.sql, chargeId, requestId);
      this.#metrics.creditsRefunded(made.endpoint, made.refunded);
      return made;
    } catch {
      // The database is away (or the refund's answer was lost): the refund is owed, on disk, and
      // made once the database is back.
      await this.refunds.owe({ kind: 'charge', chargeId, requestId });
      return null;
    }
  }

  /** The caller and balance behind a key, or null when the key is not valid. */
  findCaller(keyHash: Buffer): ReturnType<typeof findCaller> {
    return findCaller(this.sql, keyHash);
  }

  /** A debit whose outcome is unknown (the connection broke while it ran): its charge, if any, is owed back. */
  oweUncertain(callId: string, requestId: string): Promise<void> {
    return this.refunds.owe({ kind: 'uncertain', callId, requestId });
  }

  /** The charged answer left the process. */
  delivered(chargeId: number): void {
    this.#marks.delivered(chargeId);
  }

  /**
   * The charged answer could not be written (the connection closed or failed first). The caller
   * got nothing, so the charge is refunded, unless an Idempotency-Key holds it: a retry with the
   * key receives the answer without paying again (and if none comes, the key's expiry refunds it).
   */
  async undelivered(chargeId: number, requestId: string, { heldByKey }: { heldByKey: boolean }): Promise<void> {
    if (!heldByKey) await this.refund(chargeId, requestId);
  }
}
