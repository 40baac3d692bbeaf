import type { Context } from 'hono';
import { ApiError } from './errors.ts';
import { rootDomain } from './domain/root-domain.ts';
import { parseQuery } from './query-string.ts';

/**
 * The parameter rules of product-decisions sections 3 and 8. They read the raw query string,
 * because "given twice", "white space only" and "not valid percent-encoded UTF-8" are facts the
 * typed validators cannot see.
 */
const MAX_NAME_CODE_POINTS = 512;

/** Every value given for `parameter`; `null` stands for a value that is not percent-encoded UTF-8. */
function valuesOf(c: Context, parameter: string): (string | null)[] {
  return parseQuery(c.req.url)
    .filter((candidate) => candidate.name === parameter)
    .map((candidate) => candidate.value);
}

function isBlank(values: (string | null)[]): boolean {
  return values.length === 0 || values.every((value) => value !== null && value.trim() === '');
}

/**
 * The one value of a required parameter: absent or blank is `missing_*`; repeated, or not valid
 * percent-encoded UTF-8 (`%FF`, `%E9` alone, `%ED%A0%80`, a `%` without two hex digits), `invalid_*`.
 */
function singleValue(c: Context, parameter: 'name' | 'domain'): string {
  const values = valuesOf(c, parameter);
  // Absent or blank wins over every other problem, even over being too long.
  if (values.length <= 1 && isBlank(values)) {
    throw new ApiError(`missing_${parameter}`, `The query parameter "${parameter}" is required and must not be empty.`);
  }
  if (values.length > 1) {
    throw new ApiError(`invalid_${parameter}`, `The query parameter "${parameter}" must be given once.`);
  }
  const [value] = values;
  if (value === null) {
    throw new ApiError(
      `invalid_${parameter}`,
      `The query parameter "${parameter}" must be UTF-8, percent-encoded: a "%" must start a valid escape such as %25 or %C3%A9.`,
    );
  }
  return value;
}

export function nameParameter(c: Context): string {
  const name = singleValue(c, 'name');
  if ([...name].length > MAX_NAME_CODE_POINTS) {
    throw new ApiError('invalid_name', `The query parameter "name" must be at most ${MAX_NAME_CODE_POINTS} characters long.`);
  }
  return name;
}

export function domainParameter(c: Context): string {
  const domain = rootDomain(singleValue(c, 'domain'));
  if (domain === null) {
    throw new ApiError(
      'invalid_domain',
      'The query parameter "domain" must name a host with a registrable domain, such as example.co.uk.',
    );
  }
  return domain;
}

/**
 * The `Idempotency-Key` header of a billed call (product-decisions section 7): 1 to 255 visible
 * ASCII characters, so a UUID or any token a client makes fits, and the key is safe to store and
 * compare. A client that sends a key wants protection from paying twice, so a malformed key is
 * refused (400 invalid_idempotency_key, free) rather than silently ignored. The header given twice
 * arrives joined by ", ", which the rule refuses too. Absent: undefined.
 */
const IDEMPOTENCY_KEY = /^[!-~]{1,255}$/;

export function idempotencyKeyParameter(c: Context): string | undefined {
  const key = c.req.header('idempotency-key');
  if (key === undefined) return undefined;
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new ApiError('invalid_idempotency_key', 'The Idempotency-Key header must be 1 to 255 visible ASCII characters without spaces, such as a UUID.');
  }
  return key;
}

const RULES: Record<string, (c: Context) => unknown> = {
  name: nameParameter,
  domain: domainParameter,
  'Idempotency-Key': idempotencyKeyParameter,
  'idempotency-key': idempotencyKeyParameter,
};

/**
 * Turns a failed request validation into the error our rules give for the offending parameter,
 * so the generated validators and the hand-written rules always answer alike.
 */
export function parameterError(c: Context, parameters: string[]): ApiError {
  for (const parameter of parameters) {
    try {
      RULES[parameter]?.(c);
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
  }
  // The generated validators rejected what no rule rejects: openapi.yaml and the rules disagree.
  throw new Error(`request validation failed for parameters [${parameters.join(', ')}] that the rules accept`);
}
