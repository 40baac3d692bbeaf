/**
 * What `npm run bench:ingest` measured, and the table docs/ingest.md shows of it: every load
 * beside the limits of the machine it ran on, measured in the same run.
 */

/** A COPY of the file's rows into a table with nothing to maintain, or with one key. */
export interface Limit {
  table: string;
  seconds: number;
  rowsPerSecond: number;
}

/** The end state written the cheapest way found (scripts/bench/ingest-floor.ts). */
export interface Floor {
  /** Rows of the file it was measured on. */
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  /** CPU of its one backend; null where the server's processes cannot be read. */
  backendCpuSeconds: number | null;
  aggregatesExact: boolean;
}

/** The service's advertiser lookups (c=8) on the database, idle and while the load ran. */
export interface Lookups {
  idleP99Ms: number;
  duringP99Ms: number;
  idleRequestsPerSecond: number;
  duringRequestsPerSecond: number;
  /** Answers other than 200, socket errors and timeouts, while the load ran. */
  duringErrors: number;
  /** The same load's rate with no service on the machine, in the same run. */
  aloneRowsPerSecond?: number;
}

export interface Load {
  /** What was loaded into what. */
  label: string;
  lookups?: Lookups;
  /** Observations in the file. */
  observations: number;
  /** Into a fresh database: the floor's end state is this load's. */
  fresh?: boolean;
  /** The daily increment alone onto its base: the increment floor's end state is this load's. */
  increment?: boolean;
  seconds: number;
  rowsPerSecond: number;
  peakRssMb: number | null;
  /** CPU of the `npm run ingest` process, start-up included; null where it could not be read. */
  ingestCpuSeconds?: number | null;
  /** CPU of the load's PostgreSQL backends, sampled; null where they cannot be read. */
  backendCpuSeconds?: number | null;
  summary: Record<string, unknown>;
  aggregatesExact: boolean;
}

export interface IngestResults {
  measuredAt: string;
  command: string;
  observations: number;
  batchSize: string;
  server: string;
  /** Cores the load, its PostgreSQL and everything else on the machine share. */
  cores?: number;
  limits: Limit[];
  floor?: Floor;
  /** The daily increment's floor, onto the same base, when the run has an increment. */
  incrementFloor?: Floor;
  loads: Load[];
}

const perRow = (seconds: number | null | undefined, rows: number) =>
  seconds === null || seconds === undefined ? null : (seconds * 1e6) / rows;

/**
 * The most rows per second a load could reach on the run's cores: every core busy all the time,
 * the ingest process spending what it spent per row, and PostgreSQL no more than its floor's work
 * per row (the fresh database's floor, or the increment's). Null when a figure is missing or the
 * load has no floor (the increment beside the service, whose backends share the database).
 */
export function ceiling(load: Load, results: Pick<IngestResults, 'floor' | 'incrementFloor' | 'cores'>): number | null {
  const floor = load.fresh ? results.floor : load.increment ? results.incrementFloor : undefined;
  const { cores } = results;
  if (floor === undefined || cores === undefined || floor.rows !== load.observations) return null;
  const process = perRow(load.ingestCpuSeconds, load.observations);
  const database = perRow(floor.backendCpuSeconds, floor.rows);
  if (process === null || database === null) return null;
  return (cores * 1e6) / (process + database);
}

const n = (value: number) => Math.round(value).toLocaleString('en-US');
const micros = (value: number | null) => (value === null ? '' : value.toFixed(1));

/** The floor has no ingest process: its rows are COPY text already. */
function floorRow(what: string, floor: Floor, raw: number): string {
  const cpu = floor.backendCpuSeconds === null ? '' : `0 + ${micros(perRow(floor.backendCpuSeconds, floor.rows))}`;
  return (
    `| ${what} | ${floor.seconds.toFixed(1)} | ` +
    `${n(floor.rowsPerSecond)} | ${(floor.rowsPerSecond / raw).toFixed(2)} | ${cpu} | | | | ` +
    `${floor.aggregatesExact ? 'exact' : '**wrong**'} |`
  );
}

/** Prose wrapped at the docs' width, at spaces. */
function wrap(text: string, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  return [...lines, line].join('\n');
}

/** The markdown of docs/ingest.md's measured section. */
export function ingestReport(results: IngestResults): string {
  const raw = results.limits[0].rowsPerSecond;
  const { floor, incrementFloor, cores } = results;
  const lines = [
    wrap(
      `${results.server}, batch size ${results.batchSize}, ` +
        `measured ${results.measuredAt.slice(0, 10)} ` +
        `(\`npm run bench:ingest -- ${results.command}\`)${cores === undefined ? '' : `, ${cores} cores`}.`,
    ),
    '',
    '| what | seconds | rows/s | / raw COPY | CPU µs per row: ingest + PostgreSQL | ceiling rows/s | ' +
      '/ ceiling | peak RSS (MB) | aggregates |',
    '| :-- | --: | --: | --: | --: | --: | --: | --: | :-- |',
    ...results.limits.map(
      (limit) =>
        `| limit: COPY into ${limit.table} | ${limit.seconds.toFixed(1)} | ${n(limit.rowsPerSecond)} | ` +
        `${(limit.rowsPerSecond / raw).toFixed(2)} | | | | | |`,
    ),
    ...(floor === undefined
      ? []
      : [floorRow('floor: the end state from COPY text, one set-based pass, one backend', floor, raw)]),
    ...(incrementFloor === undefined
      ? []
      : [
          floorRow(
            'floor of the increment: its end state onto the base from COPY text, one set-based pass, one backend',
            incrementFloor,
            raw,
          ),
        ]),
    ...results.loads.map((load) => {
      const process = perRow(load.ingestCpuSeconds, load.observations);
      const database = perRow(load.backendCpuSeconds, load.observations);
      const cpu = process === null ? '' : `${micros(process)} + ${database === null ? '?' : micros(database)}`;
      const most = ceiling(load, results);
      return (
        `| \`npm run ingest\`, ${n(load.observations)} observations, ${load.label} | ${load.seconds.toFixed(1)} | ` +
        `${n(load.rowsPerSecond)} | ${(load.rowsPerSecond / raw).toFixed(2)} | ${cpu} | ` +
        `${most === null ? '' : n(most)} | ${most === null ? '' : (load.rowsPerSecond / most).toFixed(3)} | ` +
        `${load.peakRssMb?.toFixed(0) ?? ''} | ` +
        `${load.aggregatesExact ? 'exact' : '**wrong**'} |`
      );
    }),
  ];
  const beside = results.loads.filter((load) => load.lookups !== undefined);
  if (beside.length > 0)
    lines.push(
      '',
      wrap(
        'The service beside the load (advertiser lookups by name, 8 connections, the configuration `npm start` ' +
          'ships), and the same load alone, into a copy of the same base, in the same run:',
      ),
      '',
      '| load | p99 idle (ms) | p99 during the load (ms) | during / idle | req/s idle | req/s during | errors | ' +
        'load rows/s alone | beside the service | beside / alone |',
      '| :-- | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
      ...beside.map(({ label, lookups, rowsPerSecond }) => {
        const l = lookups!;
        const alone = l.aloneRowsPerSecond;
        return (
          `| ${label} | ${l.idleP99Ms} | ${l.duringP99Ms} | ${(l.duringP99Ms / l.idleP99Ms).toFixed(2)} | ` +
          `${n(l.idleRequestsPerSecond)} | ${n(l.duringRequestsPerSecond)} | ${l.duringErrors} | ` +
          `${alone === undefined ? '' : n(alone)} | ${n(rowsPerSecond)} | ` +
          `${alone === undefined ? '' : (rowsPerSecond / alone).toFixed(2)} |`
        );
      }),
    );
  return lines.join('\n');
}
