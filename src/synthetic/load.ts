import type { Sql } from '../db/client.ts';
import { ingestCrawls, ingestLabels, ingestObservations, type IngestSummary } from '../ingest/index.ts';
import { generateDataset, type Dataset, type DatasetOptions } from './generator.ts';

export interface LoadedDataset {
  observations: IngestSummary;
  crawls: IngestSummary;
  labels: IngestSummary;
}

/** Ingests a generated dataset: observations, then crawls, then labels. */
export async function loadDataset(sql: Sql, dataset: Dataset, options: { batchSize?: number } = {}): Promise<LoadedDataset> {
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
export async function loadDemoDataset(sql: Sql, options: DatasetOptions = {}): Promise<LoadedDataset | null> {
  const [{ empty }] = await sql<{ empty: boolean }[]>`SELECT NOT EXISTS (SELECT 1 FROM observations) AS empty`;
  if (!empty) return null;
  return loadDataset(sql, generateDataset(options));
}
