import { setTimeout } from 'node:timers/promises';
import type { Sql } from '../data/client.ts';
import { serviceRunning } from '../data/service-runs.ts';
import { type Connection, type CopyStream, openCopy } from './copy.ts';
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
  /**
   * Apply on two connections even while the service runs on the database. By default a load
   * beside a running service applies on one, so the lookups keep a core (docs/product-rules.md R10.24).
   */
  fullSpeed?: boolean;
  /** Told, once the load holds its connections, how many it applies on (1 or 2) and whether it yields. */
  onConnections?: (count: number, yieldsToService: boolean) => void;
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
 * Measured (docs/ingest.md): a file grouped by advertiser loads as fast at 10,000 rows a batch as
 * at 100,000, but a file in crawl order, where every batch touches thousands of identifiers and
 * rewrites their aggregates, loads 1.4 times as fast at 100,000 as at 20,000. A smaller batch
 * holds less memory and the lock for less time.
 */
export const DEFAULT_BATCH_SIZE = 100_000;
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

/**
 * A batch's valid rows, sent to the server as they come (COPY into the kind's staging table, in
 * the batch's own transaction on its connection), and where each came from.
 */
class Batch {
  rows = 0;
  /** Two rows share an identity; unknown (true) when the kind has none. */
  repeats: boolean;
  private readonly identities: Set<string> | undefined;
  readonly ordinals: number[] = [];
  readonly lines: number[] = [];
  readonly texts: (string | undefined)[] = [];
  readonly invalid: Pending[] = [];
  private chunk = '';
  private copy: CopyStream | undefined;

  /**
   * `free`: settled once the connection's previous batch is committed, and the connection
   * can begin this one.
   */
  constructor(
    private readonly kind: IngestKind,
    readonly connection: Connection,
    private readonly free: Promise<unknown> | undefined,
  ) {
    this.repeats = kind.identityFields === undefined;
    if (kind.identityFields !== undefined) this.identities = new Set();
  }

  /** Adds a valid row; a promise when its text went to the server and the caller must wait. */
  add(fields: string, ordinal: number, line: number, text: string | undefined): Promise<void> | undefined {
    if (this.identities !== undefined && !this.repeats) {
      const identity = leadingFields(fields, this.kind.identityFields!);
      if (this.identities.has(identity)) this.repeats = true;
      else this.identities.add(identity);
    }
    this.chunk += `${this.rows}\t${fields}\n`;
    this.ordinals.push(ordinal);
    this.lines.push(line);
    this.texts.push(text);
    this.rows += 1;
    // 64 KB at a time: fewer writes, and the batch is never held whole.
    return this.chunk.length >= 1 << 16 ? this.send() : undefined;
  }

  private async send(): Promise<void> {
    if (this.copy === undefined) {
      await this.free;
      await this.connection.unsafe('BEGIN');
      const [staging] = Object.keys(this.kind.tables);
      this.copy = await openCopy(this.connection, `COPY ${staging} (${this.kind.columns.join(', ')}) FROM STDIN`);
    }
    const chunk = this.chunk;
    this.chunk = '';
    await this.copy.write(chunk);
  }

  /** Ends the copy: every valid row of the batch is in the staging table. */
  async staged(): Promise<void> {
    if (this.chunk !== '') await this.send();
    await this.copy?.end();
  }

  /** Gives up the batch's transaction, if it began one. */
  async abandon(): Promise<void> {
    if (this.copy === undefined) return;
    await this.copy.end().catch(() => {});
    await this.connection.unsafe('ROLLBACK').catch(() => {});
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
 * `batchSize`, one transaction each: COPY into a temp table as the rows are read, then
 * set-based SQL. While PostgreSQL applies one batch, the next is read, validated and copied on a
 * second connection, so at most two batches are in flight.
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

  // Temp tables belong to a session: each connection has its own. While one batch is applied
  // on one, the next is read and copied on the other, so at most two batches are in flight.
  // Beside a running service that second lane would take the lookups' core: the load yields it.
  const yieldsToService = !options.fullSpeed && (await serviceRunning(sql));
  const connections = await reserveLanes(sql, yieldsToService ? 1 : 2);
  options.onConnections?.(connections.length, yieldsToService);
  const committed: (Promise<void> | undefined)[] = connections.map(() => undefined);
  let applying: Promise<void> | undefined;
  let count = 0;
  const nextBatch = () => {
    const lane = count++ % connections.length;
    const free = committed[lane]?.catch(() => {});
    return { lane, batch: new Batch(kind, connections[lane], free) };
  };

  const settle = async (batch: Batch) => {
    const found = batch.invalid;
    if (batch.rows > 0) {
      await batch.staged().catch(async (error: unknown) => {
        await batch.abandon();
        throw error;
      });
      const outcome = await applyBatch(batch.connection, kind, { rows: batch.rows, repeats: batch.repeats });
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

  let current = nextBatch();
  try {
    for (const connection of connections) await createTables(connection, kind);
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
      let fields: string | undefined;
      try {
        const unreadable = record[UNREADABLE];
        if (typeof unreadable === 'string') reject(unreadable);
        fields = kind.validate(record);
      } catch (error) {
        if (!(error instanceof RecordRejected)) throw error;
        current.batch.invalid.push({ ordinal, line, text, reason: error.reason });
      }
      if (fields !== undefined) {
        const sending = current.batch.add(fields, ordinal, line, text);
        if (sending !== undefined) await sending;
      }
      // Rejects wait for their batch, to be reported in input order: they bound it too.
      if (current.batch.rows >= size || current.batch.invalid.length >= size) {
        await applying;
        applying = settle(current.batch);
        committed[current.lane] = applying;
        // Awaited before the next batch starts; until then its failure must not go unhandled.
        applying.catch(() => {});
        current = nextBatch();
      }
    }
    await applying;
    applying = undefined;
    await settle(current.batch);
    await waitForDurability(connections[0]);
    return summary;
  } catch (error) {
    // What was committed before the failure stays, durably.
    await applying?.catch(() => {});
    await current.batch.abandon();
    await waitForDurability(connections[0]).catch(() => {});
    throw error;
  } finally {
    for (const connection of connections) {
      await dropTables(connection, kind).catch(() => {});
      connection.release();
    }
  }
}

/** How long a load waits for its second connection before it runs on one. */
const SECOND_LANE_WAIT_MS = 200;

/**
 * Two connections when `wanted` and the pool has them, so that a batch is copied while the one
 * before it is applied; one otherwise (each batch then waits for the one before). The second is
 * not waited for long: loads that each held one connection of a full pool and waited for another
 * would wait for ever. One that comes too late is handed back as soon as it comes.
 */
async function reserveLanes(sql: Sql, wanted: 1 | 2): Promise<Connection[]> {
  const first = await sql.reserve();
  if (wanted < 2 || (sql.options.max ?? 10) < 2) return [first];
  const second = sql.reserve();
  const late = setTimeout(SECOND_LANE_WAIT_MS, undefined, { ref: false });
  const lane = await Promise.race([second, late]).catch((error: unknown) => {
    first.release();
    throw error;
  });
  if (lane !== undefined) return [first, lane];
  void second.then((connection) => connection.release()).catch(() => {});
  return [first];
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
async function applyBatch(connection: Connection, kind: IngestKind, staged: StagedBatch): Promise<BatchOutcome> {
  try {
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
