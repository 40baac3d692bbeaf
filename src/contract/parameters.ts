import type { Context } from 'hono';
import { ApiError, ERROR_STATUSES, type ErrorCode } from './errors.ts';
import { entryAfter } from './ledger-cursor.ts';
import type { ContractQueryParameter } from './operations.ts';
import { parseQuery } from './query-string.ts';
import { codePoints, maxLengthOf, meetsRule, parameterSchema, stringRule } from './request-rules.ts';
import { rootDomain } from './root-domain.ts';

/**
 * The parameter rules of docs/product-rules.md §3 and R7.1. They read the raw query string,
 * because "given twice", "white space only" and "not valid percent-encoded UTF-8" are facts the
 * typed validators cannot see. Their limits are the contract's, read at start-up: the `name`
 * schema's maxLength (code points, as JSON Schema counts), the `from` and `to` schemas' pattern
 * and first and last days, the `limit` schema's bounds, default and written form, the
 * Idempotency-Key schema, and whether a parameter is `required`.
 */
/** Longest advertiser name, in code points: the `name` parameter's `maxLength`, which ingest applies too. */
export const MAX_NAME_CODE_POINTS = maxLengthOf(
  parameterSchema('query', 'name'),
  'openapi.yaml: the query parameter "name"',
);

/**
 * Every value given for one query parameter, in order, at least one (a parameter given as a bare
 * name has the value ""); `null` stands for a value that is not percent-encoded UTF-8.
 */
type Values = readonly (string | null)[];

/** The rule of a query parameter that is present: its normalized value, or the ApiError that refuses it. */
type Rule = (values: Values) => string | number;

function isBlank(values: Values): boolean {
  return values.every((value) => value !== null && value.trim() === '');
}

/** A required parameter that is absent, empty or white space only. */
function missing(parameter: string): ApiError {
  return new ApiError(
    `missing_${parameter}` as ErrorCode,
    `The query parameter "${parameter}" is required and must not be empty.`,
  );
}

/**
 * The one value of a required parameter: blank is `missing_*` (as absent is); repeated, or not
 * valid percent-encoded UTF-8 (`%FF`, `%E9` alone, `%ED%A0%80`, a `%` without two hex digits), `invalid_*`.
 */
function singleValue(values: Values, parameter: 'name' | 'domain' | 'q'): string {
  // Blank wins over every other problem, even over being too long.
  if (values.length === 1 && isBlank(values)) throw missing(parameter);
  if (values.length > 1) {
    throw new ApiError(`invalid_${parameter}`, `The query parameter "${parameter}" must be given once.`);
  }
  const [value] = values;
  if (value === null) {
    throw new ApiError(
      `invalid_${parameter}`,
      `The query parameter "${parameter}" must be UTF-8, percent-encoded: ` +
        `a "%" must start a valid escape such as %25 or %C3%A9.`,
    );
  }
  return value;
}

export function nameParameter(values: Values): string {
  const name = singleValue(values, 'name');
  if (codePoints(name) > MAX_NAME_CODE_POINTS) {
    throw new ApiError(
      'invalid_name',
      `The query parameter "name" must be at most ${MAX_NAME_CODE_POINTS} characters long.`,
    );
  }
  return name;
}

/** The `q` schema of the advertiser search (docs/product-rules.md §15): its lengths are the rule's. */
const SEARCH = stringRule(parameterSchema('query', 'q'), 'openapi.yaml: the query parameter "q"');

export function searchParameter(values: Values): string {
  const q = singleValue(values, 'q');
  if (!meetsRule(SEARCH, q)) {
    throw new ApiError(
      'invalid_q',
      `The query parameter "q" must be ${SEARCH.minLength} to ${SEARCH.maxLength} characters long.`,
    );
  }
  return q;
}

export function domainParameter(values: Values): string {
  const domain = rootDomain(singleValue(values, 'domain'));
  if (domain === null) {
    throw new ApiError(
      'invalid_domain',
      'The query parameter "domain" must name a host with a registrable domain, such as example.co.uk.',
    );
  }
  return domain;
}

/**
 * The `Idempotency-Key` header of a billed call (docs/product-rules.md R7.1): 1 to 255 visible
 * ASCII characters, so a UUID or any token a client makes fits, and the key is safe to store and
 * compare. A client that sends a key wants protection from paying twice, so a malformed key is
 * refused (400 invalid_idempotency_key, free) rather than silently ignored. The header given twice
 * arrives joined by ", ", which the rule refuses too. Absent: undefined. The rule is the header
 * parameter's schema (`pattern`, `minLength`, `maxLength`).
 */
const IDEMPOTENCY_KEY = stringRule(
  parameterSchema('header', 'Idempotency-Key'),
  'openapi.yaml: the header parameter "Idempotency-Key"',
);

export function idempotencyKeyParameter(c: Context): string | undefined {
  const key = c.req.header('idempotency-key');
  if (key === undefined) return undefined;
  if (!meetsRule(IDEMPOTENCY_KEY, key)) {
    throw new ApiError(
      'invalid_idempotency_key',
      `The Idempotency-Key header must be ${IDEMPOTENCY_KEY.minLength} to ` +
        `${IDEMPOTENCY_KEY.maxLength} visible ASCII characters without spaces, such as a UUID.`,
    );
  }
  return key;
}

/**
 * The one value of an optional parameter that is present. Given twice, empty, or not valid
 * percent-encoded UTF-8: `code` (a customer who sends it means something by it).
 */
function oneValue(values: Values, parameter: string, code: ErrorCode, rule: string): string {
  const [value] = values;
  if (values.length > 1 || value === null || value === '')
    throw new ApiError(code, `The query parameter "${parameter}" must be ${rule}, given once.`);
  return value;
}

/** A UTC calendar day that exists: a `YYYY-MM-DD` that is no 2026-02-30. */
function isCalendarDay(value: string): boolean {
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
}

/**
 * A day schema's first and last days (`x-minimum`, `x-maximum`: `YYYY-MM-DD`, which JSON Schema's
 * `minimum` cannot state for a string) and its example.
 */
function dayRange(schema: any, where: string): { first: string; last: string; example: string } {
  const { 'x-minimum': first, 'x-maximum': last, example } = schema ?? {};
  for (const day of [first, last, example])
    if (typeof day !== 'string' || !isCalendarDay(day))
      throw new Error(`${where} needs x-minimum, x-maximum and an example, each a YYYY-MM-DD day`);
  return { first, last, example };
}

/** `from` or `to`: a calendar day the parameter's schema allows, within its first and last days. */
function dayParameter(parameter: 'from' | 'to'): Rule {
  const code = `invalid_${parameter}` as const;
  const where = `openapi.yaml: the query parameter "${parameter}"`;
  const declared = parameterSchema('query', parameter);
  const schema = stringRule(declared, where);
  const { first, last, example } = dayRange(declared, where);
  const rule = `a UTC date from ${first} to ${last}, such as ${example}`;
  return (values) => {
    const value = oneValue(values, parameter, code, rule);
    // Four-digit years (the pattern), so the days compare as text.
    if (!meetsRule(schema, value) || !isCalendarDay(value) || value < first || value > last)
      throw new ApiError(code, `The query parameter "${parameter}" must be ${rule}, given once.`);
    return value;
  };
}

/**
 * The `limit` schema's bounds, as the contract states them (its default is read with the others'),
 * and `x-pattern`, how the number may be written in the query.
 */
const LIMIT = limitSchema(parameterSchema('query', 'limit'));

function limitSchema(schema: any): { minimum: number; maximum: number; written: RegExp } {
  const { minimum, maximum, 'x-pattern': pattern } = schema ?? {};
  if (!Number.isInteger(minimum) || !Number.isInteger(maximum) || typeof pattern !== 'string')
    throw new Error('openapi.yaml: the query parameter "limit" needs an integer minimum and maximum and x-pattern');
  return { minimum, maximum, written: new RegExp(pattern, 'u') };
}

export function limitParameter(values: Values): number {
  const rule = `a whole number from ${LIMIT.minimum} to ${LIMIT.maximum}`;
  const value = oneValue(values, 'limit', 'invalid_limit', rule);
  const limit = LIMIT.written.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= LIMIT.minimum && limit <= LIMIT.maximum))
    throw new ApiError('invalid_limit', `The query parameter "limit" must be ${rule}, given once.`);
  return limit;
}

export function cursorParameter(values: Values): string {
  const rule = 'the next_cursor of a previous page';
  const value = oneValue(values, 'cursor', 'invalid_cursor', rule);
  if (entryAfter(value) === null)
    throw new ApiError('invalid_cursor', `The query parameter "cursor" must be ${rule}, given once.`);
  return value;
}

/** The rule of each query parameter the contract declares, by name. */
const QUERY_RULES: Record<string, Rule> = {
  name: nameParameter,
  domain: domainParameter,
  q: searchParameter,
  from: dayParameter('from'),
  to: dayParameter('to'),
  limit: limitParameter,
  cursor: cursorParameter,
};

function ruleOf(name: string): Rule {
  const rule = QUERY_RULES[name];
  if (rule === undefined)
    throw new Error(`openapi.yaml declares the query parameter "${name}", which has no rule in contract/parameters.ts`);
  return rule;
}

/**
 * Checked at start-up for every query parameter the contract declares: it has its rule, and a
 * required one has its `missing_<name>` error code documented.
 */
export function checkQueryParameter({ name, required }: ContractQueryParameter): void {
  ruleOf(name);
  if (required && !ERROR_STATUSES.has(`missing_${name}`))
    throw new Error(`openapi.yaml requires the query parameter "${name}" and documents no error code missing_${name}`);
}

/** An optional parameter's schema `default`, read once: what an absent one stands for. */
const defaults = new Map<string, string | number | undefined>();

function defaultOf(name: string): string | number | undefined {
  if (!defaults.has(name)) defaults.set(name, parameterSchema('query', name).default);
  return defaults.get(name);
}

/**
 * The declared query parameters of a request URL, each normalized by its rule, in the order they
 * are declared (the first that fails answers). What an absent parameter means is the contract's
 * `required`: `missing_<name>` when it is required; its schema's `default`, or nothing, when not.
 */
export function queryParameters(
  url: string,
  declared: readonly ContractQueryParameter[],
): Record<string, string | number> {
  const query: Record<string, string | number> = {};
  if (declared.length === 0) return query;
  const given = parseQuery(url);
  for (const { name, required } of declared) {
    const values = given.filter((parameter) => parameter.name === name).map((parameter) => parameter.value);
    if (values.length === 0 && required) throw missing(name);
    const value = values.length === 0 ? defaultOf(name) : ruleOf(name)(values);
    if (value !== undefined) query[name] = value;
  }
  return query;
}
