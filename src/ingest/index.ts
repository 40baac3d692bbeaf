/**
 * Bulk loading of observations, crawls and labels, shared by the demo loader, the tests and the
 * operator CLI. Records are validated in JavaScript, then applied set-based in batches, one
 * transaction each; see each function for its rules.
 */
export { ingestObservations } from './observations.ts';
export { ingestCrawls } from './crawls.ts';
export { ingestLabels, type AdvertiserType } from './labels.ts';
export { checkAggregates } from './verify.ts';
export { DEFAULT_BATCH_SIZE, MAX_BATCH_SIZE, type IngestOptions, type IngestReject, type IngestSummary, type Records } from './batches.ts';
