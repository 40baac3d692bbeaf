import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { projectRoot } from '../../src/config.ts';
import { setDailyCap } from '../../src/data/api-keys.ts';
import type { Sql } from '../../src/data/client.ts';
import { type BenchAccount, createBenchAccounts, RequestIds } from './accounts.ts';
import { ChargeBook, type CheckOutcome, checkAccounts, checkCapSpend } from './checks.ts';
import { type BenchServer, databaseName, ensureDatabase, openPool } from './database.ts';
import { type DatasetLoad, ensureDataset } from './dataset.ts';
import { BenchError } from './errors.ts';
import { BARE_WORK_LABEL, BARE_WORK_MICROS } from './floor-path.ts';
import { bareMeasurement, baselineMeasurement, type CellSpec, type Measurement, serviceMeasurement } from './load.ts';
import { BENCH_OPERATIONS, type BenchOperation, FLOOR_OPERATION, requestPath } from './operations.ts';
import { type Parameters, sampleParameters } from './parameters.ts';
import { type BenchService, cpuSeconds, RssSampler, startBareHono, startBenchService } from './service.ts';
import type { CellMode } from './stats.ts';

/** Credits bought for every account on top of the first-key grant: far more than any run spends. */
const FUNDING = 1_000_000_000;
const CAP_NEVER_REACHED = 1_000_000_000_000;
/** Far above any latency the cells see. */
const ABANDONED_REQUESTS_GRACE_MS = 3_000;

export interface TargetOptions {
  observations: number;
  accounts: number;
  sample: number;
  warmup: number;
  /** The `Accept-Encoding` every request sends, as most HTTP clients do; none: the header is not sent. */
  acceptEncoding?: string;
  poolSize: number;
  log: (line: string) => void;
}

/**
 * One dataset size under test: its database (loaded once), the names and domains sampled from
 * it, this run's funded accounts (the spread keys and one hot key), the service process on it
 * with its memory sampler, and the baseline's pool.
 */
export class BenchTarget {
  private constructor(
    readonly observations: number,
    readonly admin: Sql,
    readonly dataset: DatasetLoad,
    readonly parameters: Parameters,
    readonly counts: { identifiers: number; landingDomains: number; postgres: string },
    readonly spread: readonly BenchAccount[],
    readonly hot: readonly BenchAccount[],
    readonly capped: readonly BenchAccount[],
    private readonly accounts: readonly BenchAccount[],
    readonly book: ChargeBook,
    readonly ids: RequestIds,
    readonly service: BenchService,
    readonly sampler: RssSampler,
    readonly baselinePool: Sql,
    private readonly warmup: number,
    /** The service's request log for this run (checked, then removed, by `checkRequestLog`). */
    readonly requestLog: string,
    /** The bare Hono cell's server (./bare-hono.ts). */
    private readonly bare: BenchService,
    /** The same, busy for `BARE_WORK_MICROS` per answer: the floor target's calibration. */
    private readonly bareWithWork: BenchService,
    private readonly clientHeaders: Readonly<Record<string, string>>,
  ) {}

  /** Opens a size; `defer` receives what to close when the run ends (or is interrupted), in order of opening. */
  static async open(
    server: BenchServer,
    options: TargetOptions,
    defer: (close: () => Promise<void>) => void,
  ): Promise<BenchTarget> {
    const { observations, log } = options;
    const name = databaseName(observations);
    const url = await ensureDatabase(server, name);
    log(`Database ${name} on the ${server.description}`);
    const admin = openPool(url, 4);
    defer(() => admin.end({ timeout: 5 }));
    const dataset = await ensureDataset(admin, observations, log, process.stderr);
    const parameters = await sampleParameters(admin, options.sample);
    const [counts] = await admin<{ identifiers: number; landingDomains: number; postgres: string }[]>`
      SELECT (SELECT count(*) FROM identifiers)::bigint AS "identifiers", (SELECT count(*)
        FROM landing_domain_stats)::bigint AS "landingDomains",
             current_setting('server_version') AS "postgres"`;
    const tag = randomBytes(4).toString('hex');
    log(
      `Creating ${options.accounts.toLocaleString('en-US')} funded ` +
        `accounts with one key each, as many whose keys have a daily cap, and the hot account (run ${tag})`,
    );
    const count = options.accounts;
    const accounts = await createBenchAccounts(admin, { count: 2 * count + 1, credits: FUNDING, tag });
    const capped = accounts.slice(count + 1);
    // A cap far above what a run spends: every call is checked against it, none refused.
    for (const account of capped) await setDailyCap(admin, account.accountId, account.keyId, CAP_NEVER_REACHED);
    const requestLog = path.join(projectRoot, '.data', 'bench', `request-log-${observations}.jsonl`);
    const service = await startBenchService(url, requestLog);
    defer(() => service.stop());
    const sampler = new RssSampler(service.pid);
    defer(async () => sampler.stop());
    log(
      `Service (scripts/bench/server.ts, pid ${service.pid}) ` +
        `listening on ${service.url}; pool size ${options.poolSize}`,
    );
    const bare = await startBareHono();
    defer(() => bare.stop());
    const bareWithWork = await startBareHono(BARE_WORK_MICROS);
    defer(() => bareWithWork.stop());
    const baselinePool = openPool(url, options.poolSize);
    defer(() => baselinePool.end({ timeout: 5 }));
    return new BenchTarget(
      observations,
      admin,
      dataset,
      parameters,
      counts,
      accounts.slice(0, count),
      [accounts[count]],
      capped,
      accounts,
      new ChargeBook(accounts.length),
      new RequestIds(tag),
      service,
      sampler,
      baselinePool,
      options.warmup,
      requestLog,
      bare,
      bareWithWork,
      options.acceptEncoding === undefined ? {} : { 'accept-encoding': options.acceptEncoding },
    );
  }

  /** One request per operation before measuring: a misconfigured service fails here, not as a table of errors. */
  async preflight(operations: readonly BenchOperation[]): Promise<void> {
    const account = this.spread[0];
    const calls = [
      ...operations.map((op) => ({ contract: op.contract, parameter: op.parameter, operation: op })),
      { contract: FLOOR_OPERATION, parameter: null, operation: null },
    ];
    for (const { contract, parameter, operation } of calls) {
      const value = this.valuesOf(operation)[0];
      const id = this.ids.next();
      this.book.sent(id, account.index);
      const response = await fetch(`${this.service.url}${requestPath(contract, parameter, value)}`, {
        headers: { authorization: `Bearer ${account.key}`, 'x-request-id': id },
      });
      const body = await response.text();
      this.book.answered(
        id,
        Number(response.headers.get('x-credits-charged') ?? 0),
        Number(response.headers.get('x-credits-remaining')),
      );
      if (response.status !== (operation?.status ?? 200))
        throw new BenchError(`preflight: ${contract.operationId} answered ${response.status}: ${body.slice(0, 300)}`);
    }
  }

  private valuesOf(operation: BenchOperation | null): string[] {
    if (operation?.sample) return this.parameters[operation.sample];
    const parameter = operation?.parameter ?? null;
    if (parameter === 'name') return this.parameters.names;
    if (parameter === 'domain') return this.parameters.domains;
    if (parameter === 'q') return this.parameters.queries;
    return [];
  }

  private spec(mode: CellMode, operation: BenchOperation | null, concurrency: number): CellSpec {
    return {
      mode,
      label: operation?.label ?? (mode === 'bare' ? 'bare hono' : mode === 'bare-work' ? BARE_WORK_LABEL : 'floor'),
      operation: operation?.contract ?? FLOOR_OPERATION,
      parameter: operation?.parameter ?? null,
      values: this.valuesOf(operation),
      accounts: mode === 'hot' ? this.hot : mode === 'capped' ? this.capped : this.spread,
      concurrency,
      warmupSeconds: this.warmup,
      clientHeaders: this.clientHeaders,
      book: this.book,
      ids: this.ids,
    };
  }

  /** A cell of an operation (null: the framework floor) in one mode. */
  measurement(mode: CellMode, operation: BenchOperation | null, concurrency: number): Measurement {
    const spec = this.spec(mode, operation, concurrency);
    if (mode === 'baseline') {
      if (operation === null) throw new Error('the floor has no baseline');
      return baselineMeasurement(this.baselinePool, spec, operation.lookup);
    }
    // The bare cell's memory is its own server's, not the service's: no RSS window, its own CPU time.
    if (mode === 'bare' || mode === 'bare-work') {
      const server = mode === 'bare' ? this.bare : this.bareWithWork;
      return bareMeasurement(server.url, spec, () => cpuSeconds(server.pid));
    }
    return serviceMeasurement(
      this.service.url,
      spec,
      () => this.sampler.window(),
      () => cpuSeconds(this.service.pid),
    );
  }

  /**
   * Stops the service and the baseline's pool, then runs the checks: nothing may be in flight when
   * balances are read. The requests the load generator abandoned when a cell ended (their client
   * gone) are given time to finish first: the service's graceful stop waits for open connections,
   * not for handlers whose connection is already closed, and would cut their queries off.
   */
  async finish(log: (line: string) => void): Promise<CheckOutcome[]> {
    this.sampler.stop();
    await new Promise((resolve) => setTimeout(resolve, ABANDONED_REQUESTS_GRACE_MS));
    await this.service.stop();
    await this.baselinePool.end({ timeout: 5 });
    log(`Checking balances and ledgers (${this.observations.toLocaleString('en-US')} observations)`);
    const checks = await checkAccounts(this.admin, this.accounts, this.book);
    checks.push(await checkCapSpend(this.admin, this.capped));
    const serviceErrors = this.service.stderr.filter((line) => /failed|error/i.test(line));
    if (serviceErrors.length > 0)
      checks.push({ name: 'service error log is empty', ok: false, detail: serviceErrors.slice(0, 3).join(' / ') });
    return checks;
  }
}

export const operationsByLabel = (labels: readonly string[]) =>
  BENCH_OPERATIONS.filter((op) => labels.includes(op.label));
