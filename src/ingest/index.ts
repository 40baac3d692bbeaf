/**
 * Bulk loading of observations, crawls and labels, shared by the demo loader, the tests and the
 * operator CLI. Records are validated in JavaScript, copied to PostgreSQL (COPY) and applied
 * set-based in batches, one transaction each; see each function for its rules.
 */

export {
  DEFAULT_BATCH_SIZE,
  type IngestOptions,
  type IngestReject,
  type IngestSummary,
  LINE,
  MAX_BATCH_SIZE,
  type Records,
  TEXT,
  UNREADABLE,
} from './batches.ts';
export { CRAWL_FIELDS, ingestCrawls } from './crawls.ts';
export { ingestLabels, LABEL_FIELDS } from './labels.ts';
export { ingestObservations, OBSERVATION_FIELDS } from './observations.ts';
export { checkAggregates } from './verify.ts';
