/**
 * Bulk loading of observations, crawls and labels, shared by the demo loader, the tests and the
 * operator CLI. Records are validated in JavaScript, copied to PostgreSQL (COPY) and applied
 * set-based in batches, one transaction each; see each function for its rules.
 */
export { ingestObservations, OBSERVATION_FIELDS } from './observations.ts';
export { CRAWL_FIELDS, ingestCrawls } from './crawls.ts';
export { ingestLabels, LABEL_FIELDS, type AdvertiserType } from './labels.ts';
export { checkAggregates } from './verify.ts';
export { DEFAULT_BATCH_SIZE, LINE, MAX_BATCH_SIZE, TEXT, UNREADABLE, type IngestOptions, type IngestReject, type IngestSummary, type Records } from './batches.ts';
