import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import * as generatedRoutes from '../../generated/routes.ts';
import { ApiError, ERROR_STATUSES, type ErrorCode } from './errors.ts';
import { entryAfter } from './ledger-cursor.ts';
import type { ContractQueryParameter } from './operations.ts';
import { parseQuery } from './query-string.ts';
import { maxLengthOf, meetsRule, parameterSchema, stringRule } from './request-rules.ts';
import { rootDomain } from './root-domain.ts';

/**
 * The parameters of docs/product-rules.md §3 and R7.1, checked by the schemas generated from the
 * contract (generated/routes.ts), the ones that type the handlers' `c.req.valid(...)`: a parameter's
 * value is what its schema makes of it (a limit its number, an absent one its default). Around the
 * schemas, only what they cannot see: a small pre-step on the raw query string ("given twice",
 * "white space only", "not valid percent-encoded UTF-8"), and, after them, what a zod schema does
 * not say as the contract means it (lengths in code points, a root domain, a cursor this service
 * made, how a number is written, the first and last days). Any refusal is the contract's error
 * (`missing_<name>` or `invalid_<name>`) with its message; the first parameter that
 * fails, in the order the operation declares them, answers.
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

/** Each query parameter's generated schema, by name: every route that declares it shares it. */
const QUERY_SCHEMAS: ReadonlyMap<string, z.ZodType> = querySchemas();

function querySchemas(): Map<string, z.ZodType> {
  const schemas = new Map<string, z.ZodType>();
  for (const route of Object.values(generatedRoutes)) {
    const shape: Record<string, z.ZodType> = (route as any)?.request?.query?.shape ?? {};
    for (const [name, schema] of Object.entries(shape)) {
      if (schemas.has(name) && schemas.get(name) !== schema)
        throw new Error(`generated/routes.ts: the query parameter "${name}" has two schemas; its rule needs one`);
      schemas.set(name, schema);
    }
  }
  return schemas;
}

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
 * The pre-step of a required parameter: blank is `missing_*` (as absent is); repeated, or not
 * valid percent-encoded UTF-8 (`%FF`, `%E9` alone, `%ED%A0%80`, a `%` without two hex digits), `invalid_*`.
 */
function singleValue(values: Values, parameter: string): string {
  // Blank wins over every other problem, even over being too long.
  if (values.length === 1 && isBlank(values)) throw missing(parameter);
  if (values.length > 1) {
    throw new ApiError(`invalid_${parameter}` as ErrorCode, `The query parameter "${parameter}" must be given once.`);
  }
  const [value] = values;
  if (value === null) {
    throw new ApiError(
      `invalid_${parameter}` as ErrorCode,
      `The query parameter "${parameter}" must be UTF-8, percent-encoded: ` +
        `a "%" must start a valid escape such as %25 or %C3%A9.`,
    );
  }
  return value;
}

/**
 * The pre-step of an optional parameter that is present. Given twice, empty, or not valid
 * percent-encoded UTF-8: refused (a customer who sends it means something by it).
 */
function oneValue(values: Values, refusal: () => ApiError): string {
  const [value] = values;
  if (values.length > 1 || value === null || value === '') throw refusal();
  return value;
}

/**
 * What the contract means by a parameter beyond its generated schema, and how it is refused.
 * `after` takes the value as given and as the schema made it, and returns the value the handler
 * reads, or null to refuse it.
 */
interface Beyond {
  /** The refusal of a value that is present but not allowed. */
  refusal: string;
  /**
   * What the schema judges: all; all but string lengths (zod counts UTF-16 code units, JSON
   * Schema code points, so `after` judges them); or nothing.
   */
  schemaJudges: 'all' | 'all but lengths' | 'nothing';
  /** Checked before the schema, on the value as given. */
  before?: (value: string) => boolean;
  after?: (given: string, output: unknown) => string | number | null;
}

/** A text within its schema's lengths in code points (its pattern too, which the pre-step's blank check states). */
function textInCodePoints(parameter: 'name' | 'q', refusal: (rule: ReturnType<typeof stringRule>) => string): Beyond {
  const rule = stringRule(parameterSchema('query', parameter), `openapi.yaml: the query parameter "${parameter}"`);
  return {
    refusal: `The query parameter "${parameter}" must be ${refusal(rule)}.`,
    schemaJudges: 'all but lengths',
    after: (given) => (meetsRule(rule, given) ? given : null),
  };
}

/**
 * A UTC calendar day: the schema checks its form and that it exists; its first and last days are
 * the contract's `x-minimum` and `x-maximum`.
 */
function day(parameter: 'from' | 'to'): Beyond {
  const where = `openapi.yaml: the query parameter "${parameter}"`;
  const { 'x-minimum': first, 'x-maximum': last, example } = parameterSchema('query', parameter) ?? {};
  for (const text of [first, last, example])
    if (typeof text !== 'string' || !/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(text))
      throw new Error(`${where} needs x-minimum, x-maximum and an example, each a YYYY-MM-DD day`);
  return {
    refusal:
      `The query parameter "${parameter}" must be a UTC date from ${first} to ${last}, ` +
      `such as ${example}, given once.`,
    schemaJudges: 'all',
    // Four-digit years (the schema's pattern), so the days compare as text.
    after: (given) => (given >= first && given <= last ? given : null),
  };
}

/** The `limit` schema's bounds, and its `x-pattern`: how the number may be written (zod would read `1e2` or ` 5`). */
function limit(): Beyond {
  const { minimum, maximum, 'x-pattern': pattern } = parameterSchema('query', 'limit') ?? {};
  if (!Number.isInteger(minimum) || !Number.isInteger(maximum) || typeof pattern !== 'string')
    throw new Error('openapi.yaml: the query parameter "limit" needs an integer minimum and maximum and x-pattern');
  const written = new RegExp(pattern, 'u');
  return {
    refusal: `The query parameter "limit" must be a whole number from ${minimum} to ${maximum}, given once.`,
    schemaJudges: 'all',
    before: (given) => written.test(given),
  };
}

/**
 * What each query parameter needs beyond its schema: the refusal's text, and the checks the
 * schema cannot state. A `domain` is any host or URL reduced to its root domain: its schema's
 * pattern states only a sound part of what is accepted (openapi.yaml), so the rule, not the
 * schema, judges it.
 */
const BEYOND_THE_SCHEMA: Record<string, Beyond> = {
  name: textInCodePoints('name', (rule) => `at most ${rule.maxLength} characters long`),
  q: textInCodePoints('q', (rule) => `${rule.minLength} to ${rule.maxLength} characters long`),
  domain: {
    refusal: 'The query parameter "domain" must name a host with a registrable domain, such as example.co.uk.',
    schemaJudges: 'nothing',
    after: (given) => rootDomain(given),
  },
  from: day('from'),
  to: day('to'),
  limit: limit(),
  cursor: {
    refusal: 'The query parameter "cursor" must be the next_cursor of a previous page, given once.',
    schemaJudges: 'all',
    after: (given) => (entryAfter(given) === null ? null : given),
  },
};

const LENGTH_ISSUES = new Set(['too_big', 'too_small']);

/** The value of a parameter that is present: its pre-step, its schema, then what lies beyond the schema. */
function presentValue(name: string, required: boolean, values: Values): string | number {
  const beyond = BEYOND_THE_SCHEMA[name]!;
  const refusal = () => new ApiError(`invalid_${name}` as ErrorCode, beyond.refusal);
  const given = required ? singleValue(values, name) : oneValue(values, refusal);
  if (beyond.before && !beyond.before(given)) throw refusal();
  let output: unknown = given;
  if (beyond.schemaJudges !== 'nothing') {
    const parsed = QUERY_SCHEMAS.get(name)!.safeParse(given);
    if (parsed.success) output = parsed.data;
    else {
      const judged = parsed.error.issues.filter(
        (issue) => beyond.schemaJudges === 'all' || !LENGTH_ISSUES.has(issue.code),
      );
      if (judged.length > 0) throw refusal();
    }
  }
  const value = beyond.after ? beyond.after(given, output) : (output as string | number);
  if (value === null) throw refusal();
  return value;
}

/**
 * The `Idempotency-Key` header of a billed call (docs/product-rules.md R7.1): 1 to 255 visible
 * ASCII characters, so a UUID or any token a client makes fits, and the key is safe to store and
 * compare. A client that sends a key wants protection from paying twice, so a malformed key is
 * refused (400 invalid_idempotency_key, free) rather than silently ignored. The header given twice
 * arrives joined by ", ", which the rule refuses too. Absent: undefined. The rule is the header's
 * generated schema (ASCII only, so zod's lengths are the contract's); the message states its lengths.
 */
const IDEMPOTENCY_KEY = idempotencyKeySchema();

function idempotencyKeySchema(): { schema: z.ZodType; rule: ReturnType<typeof stringRule> } {
  const schemas = new Set(
    Object.values(generatedRoutes)
      .map((route) => (route as any)?.request?.headers?.shape?.['Idempotency-Key'])
      .filter(Boolean),
  );
  if (schemas.size !== 1) throw new Error('generated/routes.ts needs one schema of the Idempotency-Key header');
  const rule = stringRule(
    parameterSchema('header', 'Idempotency-Key'),
    'openapi.yaml: the header parameter "Idempotency-Key"',
  );
  return { schema: [...schemas][0] as z.ZodType, rule };
}

export function idempotencyKeyParameter(c: Context): string | undefined {
  const key = c.req.header('idempotency-key');
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.schema.safeParse(key).success) {
    throw new ApiError(
      'invalid_idempotency_key',
      `The Idempotency-Key header must be ${IDEMPOTENCY_KEY.rule.minLength} to ` +
        `${IDEMPOTENCY_KEY.rule.maxLength} visible ASCII characters without spaces, such as a UUID.`,
    );
  }
  return key;
}

/**
 * Checked at start-up for every query parameter the contract declares: it has its generated schema
 * and what lies beyond it, and a required one has its `missing_<name>` error code documented.
 */
export function checkQueryParameter({ name, required }: ContractQueryParameter): void {
  if (BEYOND_THE_SCHEMA[name] === undefined || !QUERY_SCHEMAS.has(name))
    throw new Error(`openapi.yaml declares the query parameter "${name}", which has no rule in contract/parameters.ts`);
  if (required && !ERROR_STATUSES.has(`missing_${name}`))
    throw new Error(`openapi.yaml requires the query parameter "${name}" and documents no error code missing_${name}`);
}

/**
 * The declared query parameters of a request URL, each as its schema makes it, in the order they
 * are declared (the first that fails answers). What an absent parameter means is the contract's
 * `required`: `missing_<name>` when it is required; what its schema makes of nothing (its
 * `default`, or nothing) when not.
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
    const value = values.length === 0 ? absentValue(name) : presentValue(name, required, values);
    if (value !== undefined) query[name] = value;
  }
  return query;
}

/** An optional parameter that is absent: what its schema makes of nothing, read once. */
const absent = new Map<string, string | number | undefined>();

function absentValue(name: string): string | number | undefined {
  if (!absent.has(name)) {
    // As the route's object schema reads a key that is not there (an exactly optional one refuses `undefined`).
    const parsed = z.object({ [name]: QUERY_SCHEMAS.get(name)! }).safeParse({});
    absent.set(name, parsed.success ? (parsed.data[name] as string | number | undefined) : undefined);
  }
  return absent.get(name);
}
