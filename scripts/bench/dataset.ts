import type { Sql } from '../../src/data/client.ts';
import { type IngestSummary, ingestCrawls, ingestLabels, ingestObservations } from '../../src/ingest/index.ts';
import { startProgress } from '../../src/ingest/progress.ts';
import { inCrawlOrder } from '../../src/synthetic/crawl-order.ts';
import { DEFAULT_SEED, generateDataset } from '../../src/synthetic/generator.ts';
import { worldNames } from '../../src/synthetic/world-names.ts';
import { BenchError } from './errors.ts';

/** The dataset a benchmark database holds, as its marker row records it. */
export interface DatasetMarker {
  observations: number;
  seed: number;
  /** The generator's last day of activity, YYYY-MM-DD; a resumed load must use the same. */
  today: string;
  complete: boolean;
}

export interface DatasetLoad {
  marker: DatasetMarker;
  /** How the load went, when this run loaded (or completed) it; null when it was reused. */
  loaded: {
    seconds: number;
    observationsPerSecond: number;
    observations: IngestSummary;
    crawls: IngestSummary;
    labels: IngestSummary;
  } | null;
}

/**
 * The marker of a benchmark database. It is written before the load starts (with the day the
 * generator uses) and marked complete only after the last record is committed, so a load that
 * stopped half-way is never taken for a dataset: the next run completes it (ingest is idempotent).
 */
async function readMarker(sql: Sql): Promise<DatasetMarker | null> {
  await sql`
    CREATE TABLE IF NOT EXISTS bench_dataset (
      only_row     boolean PRIMARY KEY DEFAULT true CHECK (only_row),
      observations bigint NOT NULL,
      seed         bigint NOT NULL,
      today        date NOT NULL,
      started_at   timestamptz NOT NULL DEFAULT now(),
      completed_at timestamptz
    )`;
  // Loaded with the world's names, as `npm run generate-data` writes them; a dataset loaded before
  // with the plain names is not the one measured now.
  await sql`ALTER TABLE bench_dataset ADD COLUMN IF NOT EXISTS names text NOT NULL DEFAULT 'plain'`;
  const [row] = await sql<{ observations: number; seed: number; today: string; complete: boolean; names: string }[]>`
    SELECT observations, seed, to_char(today, 'YYYY-MM-DD') AS today, completed_at IS NOT NULL AS complete, names
      FROM bench_dataset`;
  if (row && row.names !== 'world')
    throw new BenchError(
      `this database holds a dataset of ${row.names} names, not the world's: drop it and load again`,
    );
  return row ?? null;
}

/**
 * Loads `observations` synthetic observations (with the crawls and labels of their population)
 * through the real ingest path, unless this database already holds exactly that dataset. The
 * records are those `npm run generate-data -- --observations N --today <today>` writes: the same
 * population sizing and cut, streamed straight into ingest instead of through a file.
 */
export async function ensureDataset(
  sql: Sql,
  observations: number,
  log: (line: string) => void,
  progressStream: NodeJS.WritableStream & { isTTY?: boolean },
): Promise<DatasetLoad> {
  let marker = await readMarker(sql);
  if (marker?.complete) {
    if (marker.observations !== observations)
      throw new BenchError(`this database holds a dataset of ${marker.observations} observations, not ${observations}`);
    log(
      `Reusing the loaded dataset: ${observations.toLocaleString('en-US')} ` +
        `observations (generated for ${marker.today})`,
    );
    return { marker, loaded: null };
  }
  if (marker === null) {
    const [{ any }] = await sql<{ any: boolean }[]>`SELECT EXISTS (SELECT 1 FROM observations) AS any`;
    if (any)
      throw new BenchError('this database holds observations that the benchmark did not load; use an empty database');
    const today = new Date().toISOString().slice(0, 10);
    await sql`INSERT INTO bench_dataset (observations, seed, today, names)
      VALUES (${observations}, ${DEFAULT_SEED}, ${today}, 'world')`;
    marker = { observations, seed: DEFAULT_SEED, today, complete: false };
    log(
      `Loading ${observations.toLocaleString('en-US')} synthetic ` +
        `observations through ingest (once per size; later runs reuse them)`,
    );
  } else {
    if (marker.observations !== observations)
      throw new BenchError(`this database holds a half-loaded dataset of ${marker.observations} observations`);
    log(
      `Completing the interrupted load of ${observations.toLocaleString('en-US')} ` +
        `observations (generated for ${marker.today})`,
    );
  }

  const today = new Date(`${marker.today}T00:00:00Z`);
  // As writeDataset (src/synthetic/write-files.ts): a population a little above the count, cut there.
  const dataset = generateDataset({
    seed: marker.seed,
    size: Math.ceil(observations * 1.15) + 5_000,
    today,
    names: worldNames,
  });
  function* cut() {
    let taken = 0;
    for (const record of dataset.observations()) {
      if (taken++ >= observations) return;
      yield record;
    }
  }
  // In crawl order, as `npm run generate-data` writes files and real files come.
  let read = 0;
  function* counted() {
    for (const record of inCrawlOrder(cut(), dataset.seed)) {
      read += 1;
      yield record;
    }
  }
  const started = performance.now();
  const stopProgress = startProgress({
    label: 'bench dataset',
    stream: progressStream,
    size: observations,
    sample: () => ({ rows: read, bytes: read }),
    lineEveryMs: 5_000,
  });
  let observationsSummary: IngestSummary;
  try {
    observationsSummary = await ingestObservations(sql, counted(), { today });
  } finally {
    stopProgress();
  }
  const observationSeconds = (performance.now() - started) / 1000;
  const crawls = await ingestCrawls(sql, dataset.crawls());
  const labels = await ingestLabels(sql, dataset.labels());
  const seconds = (performance.now() - started) / 1000;
  const rejected = observationsSummary.rejected + crawls.rejected + labels.rejected;
  if (rejected > 0) throw new Error(`ingest rejected ${rejected} generated records; the generator and ingest disagree`);
  await sql`ANALYZE`;
  await sql`UPDATE bench_dataset SET completed_at = now()`;
  marker = { ...marker, complete: true };
  const observationsPerSecond = Math.round(observations / observationSeconds);
  log(`Loaded in ${seconds.toFixed(1)} s (observations: ${observationsPerSecond.toLocaleString('en-US')} per second)`);
  return { marker, loaded: { seconds, observationsPerSecond, observations: observationsSummary, crawls, labels } };
}
