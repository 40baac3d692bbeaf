import type postgres from 'postgres';
import { RecordRejected } from './fields.ts';

export type Records = AsyncIterable<Record<string, unknown>> | Iterable<Record<string, unknown>>;

export interface IngestOptions {
  /** Valid records sent to PostgreSQL per statement and transaction. */
  batchSize?: number;
  /** "Today" for the future-date rule, as a UTC calendar day; defaults to now. */
  today?: Date;
}

export interface IngestReject {
  line: number;
  reason: string;
}

export interface IngestSummary {
  read: number;
  new: number;
  updated: number;
  unchanged: number;
  rejected: number;
  rejects: IngestReject[];
}

export type RowStatus = 'new' | 'updated' | 'unchanged';

/** What applying one batch did; rejects point into the batch's rows by index. */
export interface BatchOutcome {
  counts: Record<RowStatus, number>;
  rejects: { index: number; reason: string }[];
}

export const DEFAULT_BATCH_SIZE = 5000;
/** Upper bound of a batch: positions in a batch must stay below the ingest_seq stride. */
export const MAX_BATCH_SIZE = 100_000;

interface Pending {
  ordinal: number;
  line: number;
  reason: string;
}

/**
 * Streams `records` through `validate` and hands the valid ones to `apply` in batches of
 * `batchSize`, each applied in its own transaction. The summary lists every reject in input
 * order with its line: the record's `__line` when it carries one, else its 1-based position.
 */
export async function ingestInBatches<Row>(
  records: Records,
  batchSize: number | undefined,
  validate: (record: Record<string, unknown>) => Row,
  apply: (rows: Row[]) => Promise<BatchOutcome>,
): Promise<IngestSummary> {
  const size = batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_BATCH_SIZE) {
    throw new RangeError(`batchSize must be an integer from 1 to ${MAX_BATCH_SIZE}, got ${batchSize}`);
  }
  const summary: IngestSummary = { read: 0, new: 0, updated: 0, unchanged: 0, rejected: 0, rejects: [] };
  let rows: Row[] = [];
  let rowOrdinals: { ordinal: number; line: number }[] = [];
  let invalid: Pending[] = [];

  const flush = async () => {
    const found: Pending[] = invalid;
    if (rows.length > 0) {
      const outcome = await apply(rows);
      summary.new += outcome.counts.new;
      summary.updated += outcome.counts.updated;
      summary.unchanged += outcome.counts.unchanged;
      for (const { index, reason } of outcome.rejects) found.push({ ...rowOrdinals[index], reason });
    }
    found.sort((a, b) => a.ordinal - b.ordinal);
    for (const { line, reason } of found) summary.rejects.push({ line, reason });
    summary.rejected += found.length;
    rows = [];
    rowOrdinals = [];
    invalid = [];
  };

  for await (const record of records) {
    const ordinal = summary.read;
    summary.read += 1;
    const line = typeof record.__line === 'number' ? record.__line : ordinal + 1;
    try {
      rows.push(validate(record));
      rowOrdinals.push({ ordinal, line });
    } catch (error) {
      if (!(error instanceof RecordRejected)) throw error;
      invalid.push({ ordinal, line, reason: error.reason });
    }
    if (rows.length >= size) await flush();
  }
  await flush();
  return summary;
}

export function countStatuses(rows: readonly { status: RowStatus; count: number }[]): Record<RowStatus, number> {
  const counts: Record<RowStatus, number> = { new: 0, updated: 0, unchanged: 0 };
  for (const { status, count } of rows) counts[status] += count;
  return counts;
}

/**
 * Starts a batch's transaction: takes the ingest kind's lock, so concurrent loads apply in commit
 * order, and keeps every statement on index probes. A batch joins a few thousand staged rows to
 * tables that may hold millions; the planner, trusting its I/O costs, would often rather scan a
 * whole table than probe its index per row, making every batch cost the size of the data. Temp
 * tables have no index and are still scanned. JIT is off: it never pays for statements this short
 * and would be triggered by the penalty that disables sequential scans.
 */
export async function beginBatch(tx: postgres.TransactionSql<{}>, lock: number): Promise<void> {
  await tx`SELECT pg_advisory_xact_lock(${lock})`;
  await tx`SET LOCAL enable_seqscan = off`;
  await tx`SET LOCAL jit = off`;
}
