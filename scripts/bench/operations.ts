import { type App, type AppDependencies, createAppRouting } from '../../src/app.ts';
import { type ContractOperation, contractOperations } from '../../src/contract/operations.ts';
import type { Sql } from '../../src/data/client.ts';
import {
  BRAND_BID_CAP,
  getAdvertiserHistory,
  getAdvertiserLandingDomains,
  getAdvertiserSummary,
  getBrandBidReport,
  getDomainSummary,
  LANDING_DOMAINS_CAP,
} from '../../src/data/lookups.ts';
import { searchAdvertisers, similarDomains, similarNames } from '../../src/data/search.ts';
import { FLOOR_PATH } from './floor-path.ts';
import type { Parameters } from './parameters.ts';

/** What a request of an operation names: an advertiser, a domain, or nothing. */
export type ParameterKind = 'name' | 'domain' | 'q' | null;

/** One of the contract operations, as the benchmark drives it. */
export interface BenchOperation {
  /** Short label for tables and results. */
  label: string;
  contract: ContractOperation;
  parameter: ParameterKind;
  /** The sampled values it asks for, when not those its parameter names: the misspelled ones of a "did you mean". */
  sample?: keyof Parameters;
  /** What it answers: 200, or the data 404 with suggestions of a misspelled name or domain. */
  status?: 200 | 404;
  /**
   * The lookup the handler runs after its debit (src/operations/<operationId>.ts), called directly for the
   * baseline; null when the handler runs none (the account: its debit is its whole work).
   */
  lookup: ((sql: Sql, value: string) => Promise<unknown | null>) | null;
}

function contract(operationId: string): ContractOperation {
  const operation = contractOperations.find((op) => op.operationId === operationId);
  if (operation === undefined) throw new Error(`openapi.yaml has no operation ${operationId}`);
  return operation;
}

/**
 * The seven operations, in the contract's order, with the lookups their handlers issue; then the
 * data 404s of a misspelled name and domain, whose suggestions are the costliest search.
 */
export const BENCH_OPERATIONS: readonly BenchOperation[] = [
  {
    label: 'advertiser',
    contract: contract('getAdvertiserSummary'),
    parameter: 'name',
    lookup: (sql, name) => getAdvertiserSummary(sql, name),
  },
  {
    label: 'domain',
    contract: contract('getDomainSummary'),
    parameter: 'domain',
    lookup: (sql, domain) => getDomainSummary(sql, domain),
  },
  {
    label: 'history',
    contract: contract('getAdvertiserHistory'),
    parameter: 'name',
    lookup: (sql, name) => getAdvertiserHistory(sql, name, new Date()),
  },
  {
    label: 'landing-domains',
    contract: contract('getAdvertiserLandingDomains'),
    parameter: 'name',
    lookup: (sql, name) => getAdvertiserLandingDomains(sql, name, LANDING_DOMAINS_CAP),
  },
  {
    label: 'brandbid',
    contract: contract('getBrandBidReport'),
    parameter: 'domain',
    lookup: (sql, domain) => getBrandBidReport(sql, domain, BRAND_BID_CAP),
  },
  {
    label: 'search',
    contract: contract('searchAdvertisers'),
    parameter: 'q',
    lookup: (sql, q) => searchAdvertisers(sql, q),
  },
  { label: 'account', contract: contract('getAccount'), parameter: null, lookup: null },
  {
    label: 'did-you-mean',
    contract: contract('getAdvertiserSummary'),
    parameter: 'name',
    sample: 'misspelledNames',
    status: 404,
    lookup: (sql, name) => orSuggestions(getAdvertiserSummary(sql, name), () => similarNames(sql, name)),
  },
  {
    label: 'did-you-mean-domain',
    contract: contract('getDomainSummary'),
    parameter: 'domain',
    sample: 'misspelledDomains',
    status: 404,
    lookup: (sql, domain) => orSuggestions(getDomainSummary(sql, domain), () => similarDomains(sql, domain)),
  },
];

/** A lookup as its handler runs it: without data, the suggestions its 404 carries are looked for, then null. */
async function orSuggestions<T>(found: Promise<T | null>, suggest: () => Promise<string[]>): Promise<T | null> {
  const answer = await found;
  if (answer === null) await suggest();
  return answer;
}

/**
 * The framework floor: an operation outside the contract that does no database work, served by
 * the bench server behind the whole middleware stack (request id, contract routing,
 * authentication, Accept, parameters, the billing edge). It is `unbilled`: the edge lets it
 * through without paying, so billing adds no round trip.
 */
export const FLOOR_OPERATION: ContractOperation = {
  operationId: 'benchFrameworkFloor',
  path: FLOOR_PATH,
  method: 'GET',
  creditCost: 0,
  summary: 'Framework floor (benchmark)',
  queryParameters: [],
  mediaTypes: ['application/json'],
  unbilled: true,
};

/** The service's app with the floor beside the contract's operations: how the bench server composes it. */
export function appWithFrameworkFloor(dependencies: AppDependencies): App {
  const app = createAppRouting([...contractOperations, FLOOR_OPERATION], dependencies);
  app.get(FLOOR_OPERATION.path, (c) => c.json({ floor: true }, 200));
  return app;
}

/** The request path of one call. */
export function requestPath(operation: ContractOperation, parameter: ParameterKind, value: string | undefined): string {
  if (parameter === null || value === undefined) return operation.path;
  return `${operation.path}?${parameter}=${encodeURIComponent(value)}`;
}
