import type { Sql } from '../data/client.ts';
import { type Connection, copyInto } from './copy.ts';
import { RecordRejected, reject } from './fields.ts';

export type Records = AsyncIterable<Record<string, unknown>> | Iterable<Record<string, unknown>>;

export interface IngestOptions {
  /** Valid records sent to PostgreSQL per transaction. */
  batchSize?: number;
  /** "Today" for the future-date rule, as a UTC calendar day; defaults to now. */
  today?: Date;
  /**
   * Receives every reject, in input order, with the record's original text when the record
   * carries it (TEXT). The summary then lists none, so memory stays flat however many there are.
   */
  onReject?: (reject: IngestReject, text: string | undefined) => void | Promise<void>;
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

/** What applying one batch did; rejects point into the batch's rows by position. */
export interface BatchOutcome {
  counts: Record<RowStatus, number>;
  rejects: { index: number; reason: string }[];
}

/**
 * Keys a record may carry besides its fields, set by whoever read it from a file: its physical
 * line, its original text, and why the text gave no usable record (invalid JSON, for example).
 */
export const LINE = '__line';
export const TEXT = '__text';
export const UNREADABLE = '__unreadable';

/**
 * Measured: throughput is flat from 10,000 to 100,000 rows a batch, and far lower below a few
 * thousand; a smaller batch holds less memory and the lock for less time.
 */
export const DEFAULT_BATCH_SIZE = 20_000;
/** Upper bound of a batch: positions in a batch must stay below the ingest_seq stride. */
export const MAX_BATCH_SIZE = 100_000;

/** One kind of record (observations, crawls, labels): its rules and its set-based apply. */
export interface IngestKind {
  /** Advisory lock: concurrent loads of a kind apply their batches one at a time. */
  lock: number;
  /** Temp tables by name (column definitions), created for the load; the first is COPY's target. */
  tables: Record<string, string>;
  /** Columns of the staging table in COPY order; the first is the row's position in its batch. */
  columns: readonly string[];
  /** The record's fields after the position, as COPY text (see copyField); throws RecordRejected. */
  validate(record: Record<string, unknown>): string;
  /** How many leading fields identify a record, when the kind's apply can use `repeats`. */
  identityFields?: number;
  /** Applies the staged batch inside its transaction, the kind's lock held. */
  apply(connection: Connection, batch: StagedBatch): Promise<BatchOutcome>;
}

/** What the staging table holds. */
export interface StagedBatch {
  /** Valid rows, positions 0 to rows - 1. */
  rows: number;
  /** Two rows share an identity: false only when the kind has `identityFields` and none do. */
  repeats: boolean;
}

/** Records validated between two turns of the event loop while a batch is applied. */
const YIELD_EVERY = 256;

interface Pending {
  ordinal: number;
  line: number;
  text: string | undefined;
  reason: string;
}

/** Valid rows as COPY text, and where each came from. */
class Batch {
  rows = 0;
  /** Two rows share an identity; unknown (true) when the kind has none. */
  repeats: boolean;
  private readonly identities: Set<string> | undefined;
  readonly chunks: string[] = [];
  readonly ordinals: number[] = [];
  readonly lines: number[] = [];
  readonly texts: (string | undefined)[] = [];
  readonly invalid: Pending[] = [];
  private chunk = '';

  constructor(private readonly identityFields: number | undefined) {
    this.repeats = identityFields === undefined;
    if (identityFields !== undefined) this.identities = new Set();
  }

  add(fields: string, ordinal: number, line: number, text: string | undefined): void {
    if (this.identities !== undefined && !this.repeats) {
      const identity = leadingFields(fields, this.identityFields!);
      if (this.identities.has(identity)) this.repeats = true;
      else this.identities.add(identity);
    }
    this.chunk += `${this.rows}\t${fields}\n`;
    // Large strings go to the socket in one write, but one string per batch would be copied
    // on every append.
    if (this.chunk.length >= 1 << 16) this.flushChunk();
    this.ordinals.push(ordinal);
    this.lines.push(line);
    this.texts.push(text);
    this.rows += 1;
  }

  flushChunk(): string[] {
    if (this.chunk !== '') this.chunks.push(this.chunk);
    this.chunk = '';
    return this.chunks;
  }
}

/** The first `count` tab-separated fields of a COPY line. */
function leadingFields(fields: string, count: number): string {
  let end = -1;
  for (let n = 0; n < count; n += 1) {
    end = fields.indexOf('\t', end + 1);
    if (end === -1) return fields;
  }
  return fields.slice(0, end);
}

/**
 * Streams `records` through the kind's validation and applies the valid ones in batches of
 * `batchSize`, one transaction each: COPY into a temp table, then set-based SQL. While
 * PostgreSQL applies one batch, the next is read and validated, so at most two batches are held.
 * The summary counts every record; rejects come in input order with their line: the record's
 * LINE when it carries one, else its 1-based position.
 */
export async function ingestInBatches(
  sql: Sql,
  records: Records,
  options: IngestOptions,
  kind: IngestKind,
): Promise<IngestSummary> {
  const size = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_BATCH_SIZE) {
    throw new RangeError(`batchSize must be an integer from 1 to ${MAX_BATCH_SIZE}, got ${options.batchSize}`);
  }
  const summary: IngestSummary = { read: 0, new: 0, updated: 0, unchanged: 0, rejected: 0, rejects: [] };
  const onReject = options.onReject;
  const keepText = onReject !== undefined;
  const report = onReject ?? ((found: IngestReject) => summary.rejects.push(found));

  // Temp tables belong to a session, so the whole load runs on one connection.
  const connection = await sql.reserve();
  let applying: Promise<void> | undefined;

  const settle = async (batch: Batch) => {
    const found = batch.invalid;
    if (batch.rows > 0) {
      const outcome = await applyBatch(connection, kind, batch.flushChunk(), {
        rows: batch.rows,
        repeats: batch.repeats,
      });
      summary.new += outcome.counts.new;
      summary.updated += outcome.counts.updated;
      summary.unchanged += outcome.counts.unchanged;
      for (const { index, reason } of outcome.rejects) {
        found.push({ ordinal: batch.ordinals[index], line: batch.lines[index], text: batch.texts[index], reason });
      }
      found.sort((a, b) => a.ordinal - b.ordinal);
    }
    summary.rejected += found.length;
    for (const { line, reason, text } of found) await report({ line, reason }, text);
  };

  try {
    await createTables(connection, kind);
    let batch = new Batch(kind.identityFields);
    let sinceYield = 0;
    for await (const record of records) {
      // Records that are already in memory arrive as microtasks, which would hold back the
      // replies to the batch in flight until this batch is full.
      if (applying !== undefined && ++sinceYield === YIELD_EVERY) {
        sinceYield = 0;
        await new Promise(setImmediate);
      }
      const ordinal = summary.read;
      summary.read += 1;
      const line = typeof record[LINE] === 'number' ? record[LINE] : ordinal + 1;
      const text = keepText && typeof record[TEXT] === 'string' ? record[TEXT] : undefined;
      try {
        const unreadable = record[UNREADABLE];
        if (typeof unreadable === 'string') reject(unreadable);
        batch.add(kind.validate(record), ordinal, line, text);
      } catch (error) {
        if (!(error instanceof RecordRejected)) throw error;
        batch.invalid.push({ ordinal, line, text, reason: error.reason });
      }
      // Rejects wait for their batch, to be reported in input order: they bound it too.
      if (batch.rows >= size || batch.invalid.length >= size) {
        await applying;
        applying = settle(batch);
        // Awaited before the next batch starts; until then its failure must not go unhandled.
        applying.catch(() => {});
        batch = new Batch(kind.identityFields);
      }
    }
    await applying;
    applying = undefined;
    await settle(batch);
    await waitForDurability(connection);
    return summary;
  } catch (error) {
    // What was committed before the failure stays, durably.
    await applying?.catch(() => {});
    await waitForDurability(connection).catch(() => {});
    throw error;
  } finally {
    await dropTables(connection, kind).catch(() => {});
    connection.release();
  }
}

/**
 * Batches commit without waiting for the disk (a crash may lose the last few, which the same
 * load restores when run again); this commit waits until the WAL is flushed up to it, so every
 * batch committed before it is durable. A transaction with an id is needed: only it writes a
 * commit record to wait for.
 */
async function waitForDurability(connection: Connection): Promise<void> {
  await connection.unsafe('BEGIN; SET LOCAL synchronous_commit = on; SELECT txid_current(); COMMIT');
}

async function createTables(connection: Connection, kind: IngestKind): Promise<void> {
  await dropTables(connection, kind);
  for (const [name, columns] of Object.entries(kind.tables)) {
    // ON COMMIT DELETE ROWS: each batch starts empty, and nothing is created per batch.
    await connection.unsafe(`CREATE TEMP TABLE ${name} (${columns}) ON COMMIT DELETE ROWS`);
  }
}

async function dropTables(connection: Connection, kind: IngestKind): Promise<void> {
  await connection.unsafe(`DROP TABLE IF EXISTS ${Object.keys(kind.tables).join(', ')}`);
}

/**
 * One batch in one transaction. The kind's lock is taken after the copy, so concurrent loads
 * only wait for each other's set-based statements. Those keep to index probes: a batch joins a
 * few thousand staged rows to tables that may hold millions, and the planner, trusting its I/O
 * costs, would often rather scan a whole table than probe its index per row, making every batch
 * cost the size of the data (temp tables have no index and are still scanned). JIT never pays
 * for statements this short and would be triggered by the penalty that disables sequential scans.
 * The commit does not wait for the disk: the load waits once, at its end (waitForDurability).
 */
async function applyBatch(
  connection: Connection,
  kind: IngestKind,
  chunks: string[],
  staged: StagedBatch,
): Promise<BatchOutcome> {
  const [staging] = Object.keys(kind.tables);
  await connection.unsafe('BEGIN');
  try {
    await copyInto(connection, `COPY ${staging} (${kind.columns.join(', ')}) FROM STDIN`, chunks);
    await connection.unsafe(
      `SELECT pg_advisory_xact_lock(${kind.lock}); SET LOCAL enable_seqscan ` +
        `= off; SET LOCAL jit = off; SET LOCAL synchronous_commit = off`,
    );
    const outcome = await kind.apply(connection, staged);
    await connection.unsafe('COMMIT');
    return outcome;
  } catch (error) {
    await connection.unsafe('ROLLBACK').catch(() => {});
    throw error;
  }
}

export function countStatuses(rows: readonly { status: RowStatus; count: number }[]): Record<RowStatus, number> {
  const counts: Record<RowStatus, number> = { new: 0, updated: 0, unchanged: 0 };
  for (const { status, count } of rows) counts[status] += count;
  return counts;
}
