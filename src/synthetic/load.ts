import { connect, type Sql } from '../data/client.ts';
import { SANDBOX_SEARCH_PATH } from '../data/sandbox.ts';
import { type IngestSummary, ingestCrawls, ingestLabels, ingestObservations } from '../ingest/index.ts';
import { type Dataset, type DatasetOptions, generateDataset } from './generator.ts';

export interface LoadedDataset {
  observations: IngestSummary;
  crawls: IngestSummary;
  labels: IngestSummary;
}

/** Ingests a generated dataset: observations, then crawls, then labels. */
export async function loadDataset(
  sql: Sql,
  dataset: Dataset,
  options: { batchSize?: number } = {},
): Promise<LoadedDataset> {
  // The dataset's own today, so a dataset generated for a later day still loads whole.
  const today = new Date(`${dataset.today}T00:00:00Z`);
  return {
    observations: await ingestObservations(sql, dataset.observations(), { ...options, today }),
    crawls: await ingestCrawls(sql, dataset.crawls(), options),
    labels: await ingestLabels(sql, dataset.labels(), options),
  };
}

/**
 * Loads the demo dataset (DEMO fixtures plus DEFAULT_DEMO_SIZE observations ending today) into
 * a database that holds no observations yet; returns null, loading nothing, otherwise.
 */
/**
 * Loads the demo dataset into the sandbox's tables (docs/product-rules.md §17) when they hold no
 * observations yet, through the ordinary ingest on a connection whose search_path starts with them.
 */
export async function loadSandboxDataset(databaseUrl: string): Promise<LoadedDataset | null> {
  const sandbox = connect(databaseUrl, 1, { searchPath: SANDBOX_SEARCH_PATH });
  try {
    return await loadDemoDataset(sandbox);
  } finally {
    await sandbox.end({ timeout: 5 });
  }
}

export async function loadDemoDataset(sql: Sql, options: DatasetOptions = {}): Promise<LoadedDataset | null> {
  const [{ empty }] = await sql<{ empty: boolean }[]>`SELECT NOT EXISTS (SELECT 1 FROM observations) AS empty`;
  if (!empty) return null;
  return loadDataset(sql, generateDataset(options));
}
