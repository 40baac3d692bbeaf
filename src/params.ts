import type { Context } from 'hono';
import { ApiError } from './errors.ts';
import { rootDomain } from './domain/root-domain.ts';

/**
 * The parameter rules of product-decisions sections 3 and 8. They read the raw query string,
 * because "given twice" and "white space only" are facts the typed validators cannot see.
 */
const MAX_NAME_CODE_POINTS = 512;

function valuesOf(c: Context, parameter: string): string[] {
  return c.req.queries(parameter) ?? [];
}

function isBlank(values: string[]): boolean {
  return values.length === 0 || values.every((value) => value.trim() === '');
}

export function nameParameter(c: Context): string {
  const values = valuesOf(c, 'name');
  // Absent or blank wins over every other problem, even when repeated or too long.
  if (values.length <= 1 && isBlank(values)) {
    throw new ApiError('missing_name', 'The query parameter "name" is required and must not be empty.');
  }
  if (values.length > 1) {
    throw new ApiError('invalid_name', 'The query parameter "name" must be given once.');
  }
  const [name] = values;
  if ([...name].length > MAX_NAME_CODE_POINTS) {
    throw new ApiError('invalid_name', `The query parameter "name" must be at most ${MAX_NAME_CODE_POINTS} characters long.`);
  }
  return name;
}

export function domainParameter(c: Context): string {
  const values = valuesOf(c, 'domain');
  if (values.length <= 1 && isBlank(values)) {
    throw new ApiError('missing_domain', 'The query parameter "domain" is required and must not be empty.');
  }
  if (values.length > 1) {
    throw new ApiError('invalid_domain', 'The query parameter "domain" must be given once.');
  }
  const domain = rootDomain(values[0]);
  if (domain === null) {
    throw new ApiError(
      'invalid_domain',
      'The query parameter "domain" must name a host with a registrable domain, such as example.co.uk.',
    );
  }
  return domain;
}

const RULES: Record<string, (c: Context) => string> = { name: nameParameter, domain: domainParameter };

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
