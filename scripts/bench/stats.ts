/**
 * Latencies of one cell, recorded by the harness itself for the service and the baseline alike
 * (from the moment a request is handed to the client until its answer is complete), so the two
 * are measured the same way and at sub-millisecond resolution.
 */
export class LatencyRecorder {
  private values: number[] = [];

  record(milliseconds: number): void {
    this.values.push(milliseconds);
  }

  get count(): number {
    return this.values.length;
  }

  /** Nearest-rank percentile (0 < p ≤ 100) in milliseconds; null when nothing was recorded. */
  percentile(p: number): number | null {
    return percentile(this.values, p);
  }
}

export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

/** One measured cell of the table. */
export interface CellResult {
  /** `service`, `hot`, `capped`, `baseline`, `floor` or `bare` (bare Hono). */
  mode: CellMode;
  /** The operation's label, or `floor`. */
  operation: string;
  concurrency: number;
  /** Answers per second over the measured window (errors included; they are counted apart). */
  requestsPerSecond: number;
  p50: number | null;
  p99: number | null;
  /** Answers in the measured window. */
  requests: number;
  /** 404 answers (charged, but not errors): a sampled name that no longer exists. */
  notFound: number;
  /** Answers other than 2xx and 404, plus socket errors and timeouts. */
  errors: number;
  /** Status codes of the error answers, for diagnosis. */
  errorStatuses: Record<string, number>;
  seconds: number;
  /** Peak resident memory of the service process during the cell, MB (service cells only). */
  peakRssMb: number | null;
  /**
   * CPU time (user and system) per answer, µs, of the process that answered: the service's, bare
   * Hono's, or for the baseline the harness's own (its postgres client, without HTTP).
   */
  cpuMicrosPerRequest?: number | null;
}

export type CellMode = 'service' | 'hot' | 'capped' | 'baseline' | 'floor' | 'bare' | 'bare-work';

export const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
