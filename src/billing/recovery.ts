import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Sql } from '../data/client.ts';
import {
  beat,
  chargesNeverDelivered,
  endRuns,
  openRuns,
  refundUndelivered,
  registerRun,
} from '../data/service-runs.ts';
import { isProcessAlive } from './process-alive.ts';

const HEARTBEAT_MS = 5_000;
const SWEEP_MS = 10_000;

export interface RecoveryOptions {
  /** The service's clock; Idempotency-Key lifetimes follow it. */
  now: () => Date;
  /** How long an Idempotency-Key holds its charge for a retry. */
  keyLifetimeMs: number;
  log: (line: string) => void;
  /** Told of every refund the pass makes, for the metrics. */
  refunded: (endpoint: string, credits: number) => void;
}

/**
 * This process's run, and the recovery of charges nobody received (docs/reliability.md).
 *
 * `start` registers the run and, before the service takes any call, ends the runs found dead and
 * refunds what they charged and never delivered, so a retry after a crash finds the dead run's
 * Idempotency-Key claims free to take over at once. After that a pass runs every few seconds:
 * runs of other hosts are found dead by their heartbeat.
 */
export class Recovery {
  readonly runId = randomUUID();
  readonly #host = os.hostname();
  #timers: NodeJS.Timeout[] = [];
  #sweeping: Promise<number> | undefined;
  /** When a heartbeat last succeeded after one failed (the database came back); undefined before. */
  #backAt: number | undefined;
  #beatFailed = false;

  constructor(
    private readonly sql: Sql,
    private readonly options: RecoveryOptions,
  ) {}

  async start(): Promise<void> {
    await registerRun(this.sql, { id: this.runId, host: this.#host, pid: process.pid });
    await this.sweep();
    const every = (ms: number, work: () => Promise<unknown>) => {
      const timer = setInterval(() => void work().catch(() => {}), ms);
      timer.unref();
      this.#timers.push(timer);
    };
    every(HEARTBEAT_MS, () =>
      beat(this.sql, this.runId).then(
        () => {
          if (this.#beatFailed) this.#backAt = Date.now();
          this.#beatFailed = false;
        },
        (error: unknown) => {
          this.#beatFailed = true;
          throw error;
        },
      ),
    );
    every(SWEEP_MS, () => this.sweep());
  }

  /** Ends this run; what it left undelivered is refunded by this pass or the next one anywhere. */
  async stop(): Promise<void> {
    for (const timer of this.#timers) clearInterval(timer);
    this.#timers = [];
    await this.#sweeping?.catch(() => {});
    await endRuns(this.sql, [this.runId]);
    await this.sweep();
  }

  /** One pass: ends the runs found dead, then refunds what nobody received. Returns the refunds made. */
  sweep(): Promise<number> {
    this.#sweeping ??= this.#sweepOnce().finally(() => {
      this.#sweeping = undefined;
    });
    return this.#sweeping;
  }

  async #sweepOnce(): Promise<number> {
    // After an outage of the database (a fail-over, docs/product-rules.md R20.3) every process's
    // heartbeat is old: none counts as stale until the others have had two beats to show they live.
    const outage = this.#beatFailed || (this.#backAt !== undefined && Date.now() - this.#backAt < 2 * HEARTBEAT_MS);
    const dead = (await openRuns(this.sql, this.runId))
      .filter(
        (run) =>
          (run.stale && !outage) || (run.host === this.#host && (run.pid === process.pid || !isProcessAlive(run.pid))),
      )
      .map((run) => run.id);
    await endRuns(this.sql, dead);
    let made = 0;
    const keysExpiredAt = new Date(this.options.now().getTime() - this.options.keyLifetimeMs);
    for (;;) {
      const charges = await chargesNeverDelivered(this.sql, keysExpiredAt);
      for (const { chargeId, requestId } of charges) {
        const refund = await refundUndelivered(this.sql, chargeId, requestId);
        if (refund === null) continue;
        made++;
        this.options.refunded(refund.endpoint, refund.refunded);
      }
      if (charges.length < 1_000) break;
    }
    if (made > 0) this.options.log(`Refunded ${made} charges whose answers were never delivered`);
    return made;
  }
}
