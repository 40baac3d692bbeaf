import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolUse } from '../data/pool-use.ts';
import type { PrimaryWatch } from '../data/primary-watch.ts';
import type { ReadReplicas } from '../data/read-replicas.ts';

/**
 * The service's Prometheus metrics. Each app has its own registry, so its counts are its own
 * (tests build many apps in one process); the process's metrics (CPU, memory, event loop, GC)
 * are collected once per process and exposed by every app. Operations are labelled by their
 * `operationId` (or the fixed path of a non-contract route), never by the URL a caller sent, so
 * neither a key nor a query string can reach a label, and the number of series stays bounded.
 */
export class Metrics {
  private readonly registry = new Registry();
  private readonly exposed: Registry;

  private readonly requests = new Counter({
    name: 'alk_http_requests_total',
    help: 'Requests answered, by operation and status code.',
    labelNames: ['operation', 'status'] as const,
    registers: [this.registry],
  });

  private readonly duration = new Histogram({
    name: 'alk_http_request_duration_seconds',
    help: 'Time from receiving a request to its response, by operation.',
    labelNames: ['operation'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  private readonly charged = new Counter({
    name: 'alk_credits_charged_total',
    help: 'Credits debited, by operation (refunds are counted apart: charged minus refunded is what callers paid).',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });

  private readonly refunded = new Counter({
    name: 'alk_credits_refunded_total',
    help: 'Credits given back because a charged call failed on the server side, by operation.',
    labelNames: ['operation'] as const,
    registers: [this.registry],
  });

  constructor(pool?: PoolUse, reads?: ReadReplicas, primary?: PrimaryWatch) {
    if (primary) this.watchPrimary(primary);
    if (pool) {
      new Gauge({
        name: 'alk_db_pool_size',
        help: 'The most database connections the pool opens.',
        registers: [this.registry],
      }).set(pool.size);
      new Gauge({
        name: 'alk_db_pool_open_connections',
        help: 'Database connections open now.',
        registers: [this.registry],
        collect() {
          this.set(pool.openConnections());
        },
      });
      new Gauge({
        name: 'alk_db_queries_in_flight',
        help:
          'Queries and transactions handed to the pool and not finished, waiting ' +
          'for a connection or running; above the pool size, calls queue.',
        registers: [this.registry],
        collect() {
          this.set(pool.queriesInFlight());
        },
      });
    }
    if (reads?.configured) this.watchReplicas(reads);
    this.exposed = Registry.merge([processRegistry(), this.registry]);
  }

  /** Which server is the primary and how many fail-overs this process saw (docs/product-rules.md R20.7). */
  private watchPrimary(primary: PrimaryWatch): void {
    new Gauge({
      name: 'alk_db_primary',
      help: 'The server (host:port) that took the writes at the last check (each second); absent: no primary.',
      labelNames: ['server'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        if (primary.current !== null) this.set({ server: primary.current }, 1);
      },
    });
    new Gauge({
      name: 'alk_db_primary_up',
      help: 'Whether a primary answered the last check (1) or none did (0).',
      registers: [this.registry],
      collect() {
        this.set(primary.current === null ? 0 : 1);
      },
    });
    new Counter({
      name: 'alk_db_failovers_total',
      help: 'Times this process saw the primary move to another server.',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(primary.failovers);
      },
    });
  }

  /** Each read replica's state and lag at its last check, and where the lookups ran (data/read-replicas.ts). */
  private watchReplicas(reads: ReadReplicas): void {
    new Gauge({
      name: 'alk_db_replica_up',
      help: 'Whether the read replica answered its last check (1), lagging or not, or not (0).',
      labelNames: ['database'] as const,
      registers: [this.registry],
      collect() {
        for (const replica of reads.status())
          this.set({ database: replica.database }, replica.state === 'down' ? 0 : 1);
      },
    });
    new Gauge({
      name: 'alk_db_replica_lag_seconds',
      help: "How far the read replica's replay is behind the primary; absent while it is down.",
      labelNames: ['database'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const replica of reads.status())
          if (replica.lagMs !== null) this.set({ database: replica.database }, replica.lagMs / 1000);
      },
    });
    new Counter({
      name: 'alk_db_lookups_total',
      help: 'Lookups run on each database, the primary and each read replica (one a replica failed counts on both).',
      labelNames: ['database'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc({ database: reads.primaryName }, reads.lookupsOnPrimary());
        for (const replica of reads.status()) this.inc({ database: replica.database }, replica.lookups);
      },
    });
  }

  /**
   * Each operation and status's series, looked up once: prom-client hashes a label object on every
   * call, and this runs on every request.
   */
  private readonly answered = new Map<string, { requests: { inc(): void }; duration: { observe(v: number): void } }>();

  requestAnswered(operation: string, status: number, seconds: number): void {
    const series = `${operation} ${status}`;
    let counters = this.answered.get(series);
    if (counters === undefined) {
      counters = {
        requests: this.requests.labels({ operation, status: String(status) }),
        duration: this.duration.labels({ operation }),
      };
      this.answered.set(series, counters);
    }
    counters.requests.inc();
    counters.duration.observe(seconds);
  }

  creditsCharged(operation: string, credits: number): void {
    this.charged.inc({ operation }, credits);
  }

  creditsRefunded(operation: string, credits: number): void {
    this.refunded.inc({ operation }, credits);
  }

  get contentType(): string {
    return this.exposed.contentType;
  }

  /** The text exposition format. */
  render(): Promise<string> {
    return this.exposed.metrics();
  }
}

let processMetrics: Registry | undefined;

function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}
