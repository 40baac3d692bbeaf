import type { CheckOutcome } from './checks.ts';
import { BARE_WORK_LABEL } from './floor-path.ts';
import { BENCH_OPERATIONS } from './operations.ts';
import { type CellResult, round } from './stats.ts';

/** The targets (docs/benchmarks.md, "Targets") that one benchmark run measures. */
export const TARGETS = {
  /** Throughput, at `TARGET_CONCURRENCY`: the service, its baseline and the load generator all have work queued. */
  serviceOverBaseline: 0.9,
  /** The framework floor's requests/s over bare Hono's, at each of `REQUEST_PATH_CONCURRENCIES`. */
  floorOverBare: 0.5,
  /** At `CPU_CONCURRENCY`: the service's CPU µs per answer minus the baseline's, every operation. */
  addedCpuMicros: 60,
  /** At `SINGLE_CALLER_CONCURRENCY`: service p50 minus baseline p50, in ms, every operation. */
  singleCallerAddedP50Ms: 0.3,
  /** At `SINGLE_CALLER_CONCURRENCY`: service p99 minus baseline p99, in ms, every operation. */
  singleCallerAddedP99Ms: 1,
  hotOverSpread: 0.9,
  cappedOverSpread: 0.95,
  scaleP50: 1.5,
  rssMb: 250,
} as const;

/** The concurrency the throughput targets are judged at. */
export const TARGET_CONCURRENCY = 32;
/** The concurrencies the framework floor is judged at. */
export const REQUEST_PATH_CONCURRENCIES = [8, 32] as const;
/** The concurrency the CPU per answer is judged at: the machine is not yet saturated there. */
export const CPU_CONCURRENCY = 8;
/** One caller, one call at a time: the latency an integrator's script feels. */
export const SINGLE_CALLER_CONCURRENCY = 1;
/** The concurrency the scale target compares p50 at: latency, not queueing, dominates there. */
export const SCALE_CONCURRENCY = 8;

export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGb: number;
  os: string;
  node: string;
  postgres: string;
  loadAverage: { start: number[]; end: number[] };
}

export interface BenchResults {
  version: 1;
  date: string;
  note: string | null;
  commit: string | null;
  machine: Machine;
  config: {
    observations: number;
    durationSeconds: number;
    warmupSeconds: number;
    rounds: number;
    concurrencies: number[];
    poolSize: number;
    accounts: number;
    database: string;
    /** The `Accept-Encoding` every request sent (`--accept-encoding`); absent or null: none. */
    acceptEncoding?: string | null;
  };
  dataset: {
    observations: number;
    identifiers: number;
    landingDomains: number;
    generatedFor: string;
    sampledNames: number;
    sampledDomains: number;
    load: { seconds: number; observationsPerSecond: number } | null;
  };
  cells: CellResult[];
  rss: { peakMb: number | null; peakMbByConcurrency: Record<string, number | null> };
  ratios: RatioRow[];
  targets: TargetResult[];
  checks: CheckOutcome[];
}

export interface RatioRow {
  operation: string;
  concurrency: number;
  /** Service (keys spread) requests/s over the baseline's. */
  serviceOverBaseline: number | null;
  /** Hot account requests/s over keys spread. */
  hotOverSpread: number | null;
  /** Keys with a daily cap (never reached) requests/s over the same keys spread without one. */
  cappedOverSpread: number | null;
  /** Service p50 minus baseline p50, in ms: what HTTP, validation and JSON add to a call. */
  addedP50Ms: number | null;
  /** Service p99 minus baseline p99, in ms. */
  addedP99Ms: number | null;
  /** The service's CPU µs per answer minus the baseline's (its postgres client's). */
  addedCpuMicros: number | null;
}

export interface TargetResult {
  name: string;
  /** How the target reads, e.g. "≥ 0.7". */
  target: string;
  /** The worst measured value, the one the target is judged on. */
  measured: number | null;
  /** Per operation where the target is per operation. */
  detail: Record<string, number | null>;
  ok: boolean;
}

const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined || b === 0 ? null : round(a / b, 2);

export function findCell(
  cells: readonly CellResult[],
  mode: CellResult['mode'],
  operation: string,
  concurrency: number,
): CellResult | undefined {
  return cells.find((cell) => cell.mode === mode && cell.operation === operation && cell.concurrency === concurrency);
}

/** Service/baseline, hot/spread and capped/spread throughput ratios for every operation and concurrency measured. */
export function ratioRows(cells: readonly CellResult[]): RatioRow[] {
  const rows: RatioRow[] = [];
  for (const cell of cells) {
    if (cell.mode !== 'service') continue;
    const baseline = findCell(cells, 'baseline', cell.operation, cell.concurrency);
    const hot = findCell(cells, 'hot', cell.operation, cell.concurrency);
    const capped = findCell(cells, 'capped', cell.operation, cell.concurrency);
    rows.push({
      operation: cell.operation,
      concurrency: cell.concurrency,
      serviceOverBaseline: ratio(cell.requestsPerSecond, baseline?.requestsPerSecond),
      hotOverSpread: ratio(hot?.requestsPerSecond, cell.requestsPerSecond),
      cappedOverSpread: ratio(capped?.requestsPerSecond, cell.requestsPerSecond),
      addedP50Ms: cell.p50 === null || baseline?.p50 == null ? null : round(cell.p50 - baseline.p50, 2),
      addedP99Ms: cell.p99 === null || baseline?.p99 == null ? null : round(cell.p99 - baseline.p99, 2),
      addedCpuMicros:
        cell.cpuMicrosPerRequest == null || baseline?.cpuMicrosPerRequest == null
          ? null
          : Math.round(cell.cpuMicrosPerRequest - baseline.cpuMicrosPerRequest),
    });
  }
  return rows;
}

/**
 * Judges a run's targets: a per-operation target holds when every operation meets it (a missing
 * measurement fails it), and is reported with its worst value.
 */
export function evaluateTargets(cells: readonly CellResult[], peakRssMbAtTarget: number | null): TargetResult[] {
  const rows = ratioRows(cells);
  const perOperation = (
    name: string,
    concurrency: number,
    target: string,
    pick: (row: RatioRow) => number | null,
    holds: (value: number) => boolean,
    worstOf: (values: number[]) => number = (values) => Math.min(...values),
  ): TargetResult => {
    const at = rows.filter((row) => row.concurrency === concurrency);
    const detail = Object.fromEntries(at.map((row) => [row.operation, pick(row)]));
    const values = Object.values(detail);
    const numbers = values.filter((value): value is number => value !== null);
    return {
      name,
      target,
      measured: numbers.length === 0 ? null : worstOf(numbers),
      detail,
      ok: values.length > 0 && values.every((value) => value !== null && holds(value)),
    };
  };
  const worst = (values: number[]) => Math.max(...values);
  return [
    ...REQUEST_PATH_CONCURRENCIES.map((c) => floorTarget(cells, c)),
    perOperation(
      `service / direct-SQL baseline throughput, keys spread, c=${TARGET_CONCURRENCY}`,
      TARGET_CONCURRENCY,
      `≥ ${TARGETS.serviceOverBaseline}`,
      (row) => row.serviceOverBaseline,
      (value) => value >= TARGETS.serviceOverBaseline,
    ),
    perOperation(
      `added CPU per answer: service CPU µs − baseline CPU µs, keys spread, c=${CPU_CONCURRENCY}`,
      CPU_CONCURRENCY,
      `≤ ${TARGETS.addedCpuMicros}`,
      (row) => row.addedCpuMicros,
      (value) => value <= TARGETS.addedCpuMicros,
      worst,
    ),
    perOperation(
      `a single caller: service p50 − baseline p50 (ms), c=${SINGLE_CALLER_CONCURRENCY}`,
      SINGLE_CALLER_CONCURRENCY,
      `≤ ${TARGETS.singleCallerAddedP50Ms}`,
      (row) => row.addedP50Ms,
      (value) => value <= TARGETS.singleCallerAddedP50Ms,
      worst,
    ),
    perOperation(
      `a single caller: service p99 − baseline p99 (ms), c=${SINGLE_CALLER_CONCURRENCY}`,
      SINGLE_CALLER_CONCURRENCY,
      `≤ ${TARGETS.singleCallerAddedP99Ms}`,
      (row) => row.addedP99Ms,
      (value) => value <= TARGETS.singleCallerAddedP99Ms,
      worst,
    ),
    perOperation(
      `hot account / keys spread throughput, c=${TARGET_CONCURRENCY}`,
      TARGET_CONCURRENCY,
      `≥ ${TARGETS.hotOverSpread}`,
      (row) => row.hotOverSpread,
      (value) => value >= TARGETS.hotOverSpread,
    ),
    {
      name: `peak service RSS under the ${TARGET_CONCURRENCY}-connection load (MB)`,
      target: `< ${TARGETS.rssMb}`,
      measured: peakRssMbAtTarget,
      detail: {},
      ok: peakRssMbAtTarget !== null && peakRssMbAtTarget < TARGETS.rssMb,
    },
    cappedTarget(
      cells,
      rows.filter((row) => row.concurrency === TARGET_CONCURRENCY),
    ),
  ];
}

/** The framework floor (the whole middleware, no database) over bare Hono answering the same request. */
function floorTarget(cells: readonly CellResult[], concurrency: number): TargetResult {
  const bare = findCell(cells, 'bare', 'bare hono', concurrency)?.requestsPerSecond;
  const measured = ratio(findCell(cells, 'floor', 'floor', concurrency)?.requestsPerSecond, bare);
  // The calibration, shown beside it: bare Hono with a few µs of work per answer, over bare Hono.
  const calibration = ratio(findCell(cells, 'bare-work', BARE_WORK_LABEL, concurrency)?.requestsPerSecond, bare);
  return {
    name: `framework floor / bare Hono throughput, c=${concurrency}`,
    target: `≥ ${TARGETS.floorOverBare}`,
    measured,
    detail: calibration === null ? {} : { [BARE_WORK_LABEL]: calibration },
    ok: measured !== null && measured >= TARGETS.floorOverBare,
  };
}

/** The daily cap's cost, judged on the billed operations pooled; each operation's own ratio beside it. */
function cappedTarget(cells: readonly CellResult[], atTarget: readonly RatioRow[]): TargetResult {
  const pooled = pooledCappedOverSpread(cells, TARGET_CONCURRENCY);
  return {
    name: `keys with a daily cap / keys without, throughput, billed operations pooled, c=${TARGET_CONCURRENCY}`,
    target: `≥ ${TARGETS.cappedOverSpread}`,
    measured: pooled,
    detail: Object.fromEntries(atTarget.map((row) => [row.operation, row.cappedOverSpread])),
    ok: pooled !== null && pooled >= TARGETS.cappedOverSpread,
  };
}

export interface ScaleRow {
  operation: string;
  concurrency: number;
  smallP50: number | null;
  largeP50: number | null;
  ratio: number | null;
  baselineSmallP50: number | null;
  baselineLargeP50: number | null;
  baselineRatio: number | null;
}

/** The measurements of one size that a scale comparison reads. */
export interface ScaleSide {
  observations: number;
  date: string;
  commit: string | null;
  cells: CellResult[];
}

export interface ScaleComparison {
  version: 1;
  date: string;
  /**
   * `interleaved`: both sizes measured in one run, their cells alternating (`--scale`);
   * `separate runs`: read from two saved runs (`--compare-only`).
   */
  method: 'interleaved' | 'separate runs';
  machine: Machine | null;
  small: Omit<ScaleSide, 'cells'>;
  large: Omit<ScaleSide, 'cells'>;
  rows: ScaleRow[];
  target: TargetResult;
  checks: CheckOutcome[];
}

export const scaleSide = (results: BenchResults): ScaleSide => ({
  observations: results.config.observations,
  date: results.date,
  commit: results.commit,
  cells: results.cells,
});

/** p50 of every operation on the large dataset over the small one (service, keys spread). */
export function compareScale(
  small: ScaleSide,
  large: ScaleSide,
  {
    method,
    machine = null,
    checks = [],
  }: { method: ScaleComparison['method']; machine?: Machine | null; checks?: CheckOutcome[] },
): ScaleComparison {
  const rows: ScaleRow[] = [];
  for (const cell of small.cells) {
    if (cell.mode !== 'service') continue;
    const other = findCell(large.cells, 'service', cell.operation, cell.concurrency);
    const baseSmall = findCell(small.cells, 'baseline', cell.operation, cell.concurrency);
    const baseLarge = findCell(large.cells, 'baseline', cell.operation, cell.concurrency);
    rows.push({
      operation: cell.operation,
      concurrency: cell.concurrency,
      smallP50: cell.p50,
      largeP50: other?.p50 ?? null,
      ratio: ratio(other?.p50 ?? undefined, cell.p50 ?? undefined),
      baselineSmallP50: baseSmall?.p50 ?? null,
      baselineLargeP50: baseLarge?.p50 ?? null,
      baselineRatio: ratio(baseLarge?.p50 ?? undefined, baseSmall?.p50 ?? undefined),
    });
  }
  const judged = rows.filter((row) => row.concurrency === SCALE_CONCURRENCY);
  const detail = Object.fromEntries(judged.map((row) => [row.operation, row.ratio]));
  const values = Object.values(detail);
  const numbers = values.filter((value): value is number => value !== null);
  const { cells: _small, ...smallSide } = small;
  const { cells: _large, ...largeSide } = large;
  return {
    version: 1,
    date: new Date().toISOString(),
    method,
    machine,
    small: smallSide,
    large: largeSide,
    rows,
    checks,
    target: {
      name:
        `p50 on ${large.observations.toLocaleString('en-US')} / p50 on ` +
        `${small.observations.toLocaleString('en-US')} observations, service, c=${SCALE_CONCURRENCY}`,
      target: `≤ ${TARGETS.scaleP50}`,
      measured: numbers.length === 0 ? null : Math.max(...numbers),
      detail,
      ok: values.length > 0 && values.every((value) => value !== null && value <= TARGETS.scaleP50),
    },
  };
}

// ---- rendering ---------------------------------------------------------------------------

const num = (value: number | null | undefined, digits = 1) =>
  value === null || value === undefined
    ? '—'
    : value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const int = (value: number | null | undefined) =>
  value === null || value === undefined ? '—' : Math.round(value).toLocaleString('en-US');

function markdownTable(head: string[], rows: string[][], align: ('l' | 'r')[]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(align.map((a) => (a === 'l' ? ':--' : '--:'))), ...rows.map(line)].join('\n');
}

/** The main table: one row per operation and concurrency, the floor first. */
export function resultsTable(results: Pick<BenchResults, 'cells'>): string {
  const head = [
    'operation',
    'c',
    'service req/s',
    'p50 ms',
    'p99 ms',
    'err',
    'hot req/s',
    'p50 ms',
    'p99 ms',
    'err',
    'capped req/s',
    'p50 ms',
    'p99 ms',
    'err',
    'baseline req/s',
    'p50 ms',
    'p99 ms',
    'err',
    'service/baseline',
    'hot/spread',
    'capped/spread',
    'added p50 ms',
    'service CPU µs/req',
    'baseline CPU µs/req',
  ];
  const rows: string[][] = [];
  const concurrencies = [...new Set(results.cells.map((cell) => cell.concurrency))];
  const ratios = ratioRows(results.cells);
  const part = (cell: CellResult | undefined) =>
    cell === undefined
      ? ['—', '—', '—', '—']
      : [int(cell.requestsPerSecond), num(cell.p50, 2), num(cell.p99, 2), int(cell.errors)];
  for (const c of concurrencies) {
    for (const [label, cell] of [
      ['bare Hono', findCell(results.cells, 'bare', 'bare hono', c)],
      [BARE_WORK_LABEL, findCell(results.cells, 'bare-work', BARE_WORK_LABEL, c)],
      ['framework floor', findCell(results.cells, 'floor', 'floor', c)],
    ] as const) {
      if (cell)
        rows.push([
          label,
          String(c),
          ...part(cell),
          ...part(undefined),
          ...part(undefined),
          ...part(undefined),
          '—',
          '—',
          '—',
          '—',
          num(cell.cpuMicrosPerRequest, 0),
          '—',
        ]);
    }
    for (const cell of results.cells.filter(
      (candidate) => candidate.mode === 'service' && candidate.concurrency === c,
    )) {
      const r = ratios.find((row) => row.operation === cell.operation && row.concurrency === c);
      rows.push([
        cell.operation,
        String(c),
        ...part(cell),
        ...part(findCell(results.cells, 'hot', cell.operation, c)),
        ...part(findCell(results.cells, 'capped', cell.operation, c)),
        ...part(findCell(results.cells, 'baseline', cell.operation, c)),
        num(r?.serviceOverBaseline, 2),
        num(r?.hotOverSpread, 2),
        num(r?.cappedOverSpread, 2),
        num(r?.addedP50Ms, 2),
        num(cell.cpuMicrosPerRequest, 0),
        num(findCell(results.cells, 'baseline', cell.operation, c)?.cpuMicrosPerRequest, 0),
      ]);
    }
  }
  return markdownTable(head, rows, ['l', ...Array<'r'>(head.length - 1).fill('r')]);
}

/** The operations a daily cap checks: the billed ones (the free account call spends nothing). */
const BILLED_OPERATIONS = new Set(BENCH_OPERATIONS.filter((op) => op.contract.creditCost > 0).map((op) => op.label));

/**
 * Capped over spread throughput of the billed operations pooled at one concurrency: the requests
 * per second of all their capped cells over those of their spread cells. The cap adds the same
 * small work to every billed call, so pooling measures it over several times the requests of one cell,
 * where one cell's noise (the hot/spread control wanders as far) would hide it.
 */
export function pooledCappedOverSpread(cells: readonly CellResult[], concurrency: number): number | null {
  let capped = 0;
  let spread = 0;
  for (const cell of cells) {
    if (cell.mode !== 'service' || cell.concurrency !== concurrency || !BILLED_OPERATIONS.has(cell.operation)) continue;
    const pair = findCell(cells, 'capped', cell.operation, concurrency);
    if (pair === undefined) return null;
    capped += pair.requestsPerSecond;
    spread += cell.requestsPerSecond;
  }
  // Three digits, so that 0.946 is not judged as 0.95.
  return spread === 0 ? null : round(capped / spread, 3);
}

/** capped/spread per operation (rows) and concurrency (columns): the cost of the daily cap's check. */
export function cappedTable(cells: readonly CellResult[]): string {
  const rows = ratioRows(cells);
  const concurrencies = [...new Set(rows.map((row) => row.concurrency))];
  const operations = [...new Set(rows.map((row) => row.operation))];
  const at = (operation: string, c: number) =>
    rows.find((row) => row.operation === operation && row.concurrency === c)?.cappedOverSpread;
  return markdownTable(
    ['operation', ...concurrencies.map((c) => `capped/spread, c=${c}`)],
    [
      ...operations.map((operation) => [operation, ...concurrencies.map((c) => num(at(operation, c), 2))]),
      ['**billed operations pooled**', ...concurrencies.map((c) => `**${num(pooledCappedOverSpread(cells, c), 3)}**`)],
    ],
    ['l', ...concurrencies.map(() => 'r' as const)],
  );
}

/** Whether `value` has no digit after the hundredths (a pooled ratio may have three). */
const hundredths = (value: number | null) => value === null || Math.abs(Math.round(value * 100) - value * 100) < 1e-6;

export function targetsTable(targets: readonly TargetResult[]): string {
  return markdownTable(
    ['target', 'goal', 'measured (worst operation, unless pooled)', 'holds', 'per operation'],
    targets.map((t) => {
      // Whole numbers (µs) read as such; ratios and milliseconds with their decimals.
      const whole = [t.measured, ...Object.values(t.detail)].every((v) => v === null || Number.isInteger(v));
      return [
        t.name,
        t.target,
        num(t.measured, whole ? 0 : hundredths(t.measured) ? 2 : 3),
        t.ok ? 'yes' : '**no**',
        Object.entries(t.detail)
          .map(([operation, value]) => `${operation} ${num(value, whole ? 0 : 2)}`)
          .join(', ') || '—',
      ];
    }),
    ['l', 'l', 'r', 'l', 'l'],
  );
}

export function checksTable(checks: readonly CheckOutcome[]): string {
  return markdownTable(
    ['check', 'result', 'detail'],
    checks.map((check) => [check.name, check.ok ? 'pass' : '**FAIL**', check.detail]),
    ['l', 'l', 'l'],
  );
}

export function scaleTable(comparison: ScaleComparison): string {
  const s = comparison.small.observations.toLocaleString('en-US');
  const l = comparison.large.observations.toLocaleString('en-US');
  return markdownTable(
    [
      'operation',
      'c',
      `p50 ms @ ${s}`,
      `p50 ms @ ${l}`,
      'ratio',
      `baseline p50 @ ${s}`,
      `baseline p50 @ ${l}`,
      'baseline ratio',
    ],
    comparison.rows.map((row) => [
      row.operation,
      String(row.concurrency),
      num(row.smallP50, 2),
      num(row.largeP50, 2),
      num(row.ratio, 2),
      num(row.baselineSmallP50, 2),
      num(row.baselineLargeP50, 2),
      num(row.baselineRatio, 2),
    ]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
  );
}

export function machineLine(machine: Machine): string {
  const load = (values: number[]) => values.map((v) => v.toFixed(2)).join(' ');
  return (
    `${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGb} GB RAM, ` +
    `${machine.os}; Node ${machine.node}, PostgreSQL ${machine.postgres}; ` +
    `load average ${load(machine.loadAverage.start)} at start, ${load(machine.loadAverage.end)} at end`
  );
}
