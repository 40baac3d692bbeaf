import type { ExtraOperation } from '../../src/app.ts';
import type { Sql } from '../../src/db/client.ts';
import { advertiserHistory, advertiserLandingDomains, advertiserSummary, brandBid, BRAND_BID_CAP, domainSummary, LANDING_DOMAINS_CAP } from '../../src/db/lookups.ts';
import { contractOperations, type ContractOperation } from '../../src/spec.ts';

/** What a request of an operation names: an advertiser, a domain, or nothing. */
export type ParameterKind = 'name' | 'domain' | null;

/** One of the six contract operations, as the benchmark drives it. */
export interface BenchOperation {
  /** Short label for tables and results. */
  label: string;
  contract: ContractOperation;
  parameter: ParameterKind;
  /**
   * The lookup the handler runs after its debit (src/routes/*), called directly for the
   * baseline; null when the handler runs none (the account: its debit is its whole work).
   */
  lookup: ((sql: Sql, value: string) => Promise<unknown | null>) | null;
}

function contract(operationId: string): ContractOperation {
  const operation = contractOperations.find((op) => op.operationId === operationId);
  if (operation === undefined) throw new Error(`openapi.yaml has no operation ${operationId}`);
  return operation;
}

/** The six operations, in the contract's order, with the lookups their handlers issue. */
export const BENCH_OPERATIONS: readonly BenchOperation[] = [
  { label: 'advertiser', contract: contract('getAdvertiserSummary'), parameter: 'name', lookup: (sql, name) => advertiserSummary(sql, name) },
  { label: 'domain', contract: contract('getDomainSummary'), parameter: 'domain', lookup: (sql, domain) => domainSummary(sql, domain) },
  { label: 'history', contract: contract('getAdvertiserHistory'), parameter: 'name', lookup: (sql, name) => advertiserHistory(sql, name, new Date()) },
  {
    label: 'landing-domains',
    contract: contract('getAdvertiserLandingDomains'),
    parameter: 'name',
    lookup: (sql, name) => advertiserLandingDomains(sql, name, LANDING_DOMAINS_CAP),
  },
  { label: 'brandbid', contract: contract('getBrandBidReport'), parameter: 'domain', lookup: (sql, domain) => brandBid(sql, domain, BRAND_BID_CAP) },
  { label: 'account', contract: contract('getAccount'), parameter: null, lookup: null },
];

/**
 * The framework floor: an operation outside the contract that does no database work, served by
 * the bench server behind the whole middleware stack (request id, contract routing,
 * authentication, billing). Its handler never calls `debit()`, so billing adds no round trip.
 */
export const FLOOR_OPERATION: ContractOperation = {
  operationId: 'benchFrameworkFloor',
  path: '/api/v1/bench/floor',
  method: 'GET',
  creditCost: 0,
};

/** The floor with its handler, as the bench server registers it. */
export const FRAMEWORK_FLOOR: ExtraOperation = {
  operation: FLOOR_OPERATION,
  handler: (c) => c.json({ floor: true }, 200),
};

/** The request path of one call. */
export function requestPath(operation: ContractOperation, parameter: ParameterKind, value: string | undefined): string {
  if (parameter === null || value === undefined) return operation.path;
  return `${operation.path}?${parameter}=${encodeURIComponent(value)}`;
}
