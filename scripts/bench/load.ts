import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { DeliveryMarks } from '../../src/billing/delivery-marks.ts';
import type { ContractOperation } from '../../src/contract/operations.ts';
import { debitCalls } from '../../src/data/billing.ts';
import type { Sql } from '../../src/data/client.ts';
import type { BenchAccount, RequestIds } from './accounts.ts';
import type { ChargeBook } from './checks.ts';
import { type ParameterKind, requestPath } from './operations.ts';
import { BENCH_RATE_LIMIT } from './service.ts';
import { type CellMode, type CellResult, LatencyRecorder, round } from './stats.ts';

/** Autocannon's requests for side runs: GETs of `path(i)`, the i-th sent with the keys in turn. */
export function keyedGets(keys: readonly string[], path: (i: number) => string): autocannon.Request[] {
  let n = 0;
  return [
    {
      setupRequest: (request) => {
        const i = n++;
        return {
          ...request,
          method: 'GET',
          path: path(i),
          headers: { authorization: `Bearer ${keys[i % keys.length]}` },
        };
      },
    },
  ];
}

/** One cell: an operation at a concurrency, its requests spread round-robin over `accounts` and `values`. */
export interface CellSpec {
  mode: CellMode;
  label: string;
  operation: ContractOperation;
  parameter: ParameterKind;
  /** Sampled names or domains (empty for the account and the floor). */
  values: readonly string[];
  accounts: readonly BenchAccount[];
  concurrency: number;
  warmupSeconds: number;
  /** Headers every request of the cell sends beside its key and id (`--accept-encoding`). */
  clientHeaders: Readonly<Record<string, string>>;
  book: ChargeBook;
  ids: RequestIds;
}

interface Tally {
  latencies: LatencyRecorder;
  answers: number;
  notFound: number;
  errors: number;
  errorStatuses: Record<string, number>;
}

const newTally = (): Tally => ({
  latencies: new LatencyRecorder(),
  answers: 0,
  notFound: 0,
  errors: 0,
  errorStatuses: {},
});

function cellResult(
  spec: CellSpec,
  tally: Tally,
  seconds: number,
  peakRssMb: number | null,
  cpuSeconds: number | null,
): CellResult {
  const p50 = tally.latencies.percentile(50);
  const p99 = tally.latencies.percentile(99);
  return {
    mode: spec.mode,
    operation: spec.label,
    concurrency: spec.concurrency,
    requestsPerSecond: round(tally.answers / seconds, 1),
    p50: p50 === null ? null : round(p50, 2),
    p99: p99 === null ? null : round(p99, 2),
    requests: tally.answers,
    notFound: tally.notFound,
    errors: tally.errors,
    errorStatuses: tally.errorStatuses,
    seconds: round(seconds, 2),
    peakRssMb: peakRssMb === null ? null : round(peakRssMb, 1),
    cpuMicrosPerRequest:
      cpuSeconds === null || tally.answers === 0 ? null : round((cpuSeconds * 1e6) / tally.answers, 0),
  };
}

/** A response header by its lower-case name (autocannon hands them over as the server spelled them). */
const header = (headers: Record<string, string | string[]>, name: string): string | undefined => {
  const value = headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * One cell measured in slices: its warm-up once, then `measure()` as many times as the harness
 * interleaves it with the other cells of the same operation, adding up answers, time and
 * latencies. Interleaving keeps a burst of load from the machine's other tenants from landing
 * on one cell of a ratio only.
 */
export class Measurement {
  private readonly tally = newTally();
  private seconds = 0;
  private peakRssMb: number | null = null;
  private cpuSeconds: number | null = null;

  constructor(
    readonly spec: CellSpec,
    /** Runs the cell for `seconds`, adding to `tally`; returns the seconds of its window. */
    private readonly drive: (seconds: number, tally: Tally) => Promise<number>,
    /** Peak service RSS since the previous call (service cells). */
    private readonly rssWindow: (() => number | null) | null = null,
    /** CPU seconds the answering server process has used so far (HTTP cells). */
    private readonly cpuUsed: (() => number | null) | null = null,
  ) {}

  async warmUp(): Promise<void> {
    if (this.spec.warmupSeconds > 0) await this.drive(this.spec.warmupSeconds, newTally());
  }

  async measure(seconds: number): Promise<void> {
    this.rssWindow?.();
    const cpuBefore = this.cpuUsed?.() ?? null;
    this.seconds += await this.drive(seconds, this.tally);
    const cpuAfter = this.cpuUsed?.() ?? null;
    if (cpuBefore !== null && cpuAfter !== null) this.cpuSeconds = (this.cpuSeconds ?? 0) + cpuAfter - cpuBefore;
    const peak = this.rssWindow?.() ?? null;
    if (peak !== null) this.peakRssMb = Math.max(this.peakRssMb ?? 0, peak);
  }

  result(): CellResult {
    return cellResult(this.spec, this.tally, this.seconds, this.peakRssMb, this.cpuSeconds);
  }
}

/**
 * The service, driven by autocannon (keep-alive connections, one request in flight each). Every
 * request carries its own X-Request-Id; the answer echoes it, which ties the answer to its key
 * for the charge book and to its start time for the latency. The window is the wall time of the
 * run; requests still in flight when autocannon stops are neither counted nor lost (the check
 * settles them from the ledger).
 */
export function serviceMeasurement(
  url: string,
  spec: CellSpec,
  rssWindow: () => number | null,
  cpuUsed: () => number | null,
): Measurement {
  return new Measurement(spec, (seconds, tally) => driveService(url, spec, seconds, tally), rssWindow, cpuUsed);
}

/**
 * The baseline: the statements the handler issues, with no HTTP: the debit of src/data/billing.ts
 * (key check and charge in one statement), then the operation's lookup from src/data/lookups.ts,
 * from `concurrency` loops sharing one pool of the service's size. Like the service's, its
 * window counts the calls completed within it.
 */
export function baselineMeasurement(
  sql: Sql,
  spec: CellSpec,
  lookup: ((sql: Sql, value: string) => Promise<unknown | null>) | null,
): Measurement {
  // The harness's own CPU time: the client work the service's process does for a call (the
  // postgres client, the delivery marks), without HTTP.
  const cpuUsed = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1e6;
  };
  return new Measurement(spec, (seconds, tally) => driveBaseline(sql, spec, lookup, seconds, tally), null, cpuUsed);
}

async function driveService(url: string, spec: CellSpec, seconds: number, tally: Tally): Promise<number> {
  const startedAt = new Map<string, number>();
  let n = 0;
  return driveHttp(url, spec, seconds, tally, {
    setupRequest: (request) => {
      const i = n++;
      const account = spec.accounts[i % spec.accounts.length];
      const value = spec.values.length > 0 ? spec.values[i % spec.values.length] : undefined;
      const id = spec.ids.next();
      spec.book.sent(id, account.index);
      startedAt.set(id, performance.now());
      return {
        ...request,
        method: 'GET',
        path: requestPath(spec.operation, spec.parameter, value),
        headers: { ...spec.clientHeaders, authorization: `Bearer ${account.key}`, 'x-request-id': id },
      };
    },
    onResponse: (status, _body, _context, headers) => {
      const now = performance.now();
      const id = header(headers as Record<string, string | string[]>, 'x-request-id');
      const start = id === undefined ? undefined : startedAt.get(id);
      if (id === undefined || start === undefined)
        throw new Error(`an answer without the request id the harness sent (status ${status})`);
      startedAt.delete(id);
      const charged = Number(header(headers as Record<string, string | string[]>, 'x-credits-charged') ?? 0);
      const remaining = Number(header(headers as Record<string, string | string[]>, 'x-credits-remaining'));
      spec.book.answered(id, charged, remaining);
      tally.answers += 1;
      if (status === 404) tally.notFound += 1;
      if ((status >= 200 && status < 300) || status === 404) {
        tally.latencies.record(now - start);
      } else {
        tally.errors += 1;
        tally.errorStatuses[status] = (tally.errorStatuses[status] ?? 0) + 1;
      }
    },
  });
}

/**
 * `spec.concurrency` keep-alive connections, each with one request in flight, for `seconds`;
 * returns the wall time of the run. Connection errors and timeouts never reach `onResponse`
 * (their requests stay unanswered in the charge book): they are counted here.
 */
async function driveHttp(
  url: string,
  spec: CellSpec,
  seconds: number,
  tally: Tally,
  request: Pick<autocannon.Request, 'setupRequest' | 'onResponse'>,
): Promise<number> {
  const started = performance.now();
  const result = await autocannon({
    url,
    connections: spec.concurrency,
    pipelining: 1,
    duration: seconds,
    // How often autocannon looks at its stop flag, hence how closely a run keeps to `seconds`.
    sampleInt: 100,
    timeout: 30,
    requests: [request],
  });
  const elapsed = (performance.now() - started) / 1000;
  if (result.errors > 0) {
    tally.errors += result.errors;
    tally.errorStatuses.socket = (tally.errorStatuses.socket ?? 0) + result.errors - result.timeouts;
    if (result.timeouts > 0) tally.errorStatuses.timeout = result.timeouts;
  }
  return elapsed;
}

/**
 * The bare Hono cell (./bare-hono.ts): the floor's request, keys and all, to an app that reads
 * none of it. Each connection has one request in flight, so its context holds its start time.
 */
export function bareMeasurement(url: string, spec: CellSpec, cpuUsed: () => number | null): Measurement {
  return new Measurement(spec, (seconds, tally) => driveBare(url, spec, seconds, tally), null, cpuUsed);
}

async function driveBare(url: string, spec: CellSpec, seconds: number, tally: Tally): Promise<number> {
  let n = 0;
  return driveHttp(url, spec, seconds, tally, {
    setupRequest: (request, context) => {
      const account = spec.accounts[n++ % spec.accounts.length];
      (context as { started?: number }).started = performance.now();
      return {
        ...request,
        method: 'GET',
        path: requestPath(spec.operation, null, undefined),
        headers: { ...spec.clientHeaders, authorization: `Bearer ${account.key}`, 'x-request-id': spec.ids.next() },
      };
    },
    onResponse: (status, _body, context) => {
      const latency = performance.now() - (context as { started: number }).started;
      tally.answers += 1;
      if (status === 200) tally.latencies.record(latency);
      else {
        tally.errors += 1;
        tally.errorStatuses[status] = (tally.errorStatuses[status] ?? 0) + 1;
      }
    },
  });
}

/** The run the baseline's charges belong to: never registered, so no recovery pass ends it. */
const BASELINE_RUN_ID = '00000000-0000-4000-8000-0000000000b1';

async function driveBaseline(
  sql: Sql,
  spec: CellSpec,
  lookup: ((sql: Sql, value: string) => Promise<unknown | null>) | null,
  seconds: number,
  tally: Tally,
): Promise<number> {
  const { creditCost: price, operationId: endpoint } = spec.operation;
  // The service marks each delivered charge, in batches; the baseline does the same work.
  const marks = new DeliveryMarks(sql);
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let n = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      const i = n++;
      const account = spec.accounts[i % spec.accounts.length];
      const value = spec.values.length > 0 ? spec.values[i % spec.values.length] : undefined;
      const requestId = spec.ids.next();
      spec.book.sent(requestId, account.index);
      const start = performance.now();
      try {
        const [result] = await debitCalls(sql, [
          {
            keyHash: account.keyHash,
            price,
            endpoint,
            requestId,
            callId: randomUUID(),
            runId: BASELINE_RUN_ID,
            rateLimit: BENCH_RATE_LIMIT,
          },
        ]);
        if (result.outcome !== 'debited') {
          spec.book.answered(requestId, 0, result.outcome === 'insufficient' ? result.balance : Number.NaN);
          tally.answers += 1;
          tally.errors += 1;
          tally.errorStatuses[result.outcome] = (tally.errorStatuses[result.outcome] ?? 0) + 1;
          continue;
        }
        spec.book.answered(requestId, result.chargeId === null ? 0 : price, result.balance);
        const found = lookup === null || value === undefined ? true : await lookup(sql, value);
        if (result.chargeId !== null) marks.delivered(result.chargeId);
        const end = performance.now();
        if (end > deadline) continue; // finished after the window: not counted, as in the service's
        tally.answers += 1;
        if (found === null) tally.notFound += 1;
        tally.latencies.record(end - start);
      } catch (error) {
        // A failed debit stays unanswered in the book, and the check settles it from the ledger;
        // a failed lookup was already recorded with its charge.
        tally.errors += 1;
        const code = String((error as { code?: unknown }).code ?? 'exception');
        tally.errorStatuses[code] = (tally.errorStatuses[code] ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: spec.concurrency }, loop));
  await marks.flush();
  return seconds;
}
