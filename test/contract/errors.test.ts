// @module-tag database-free
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  badRequest,
  dailyCapReached,
  ERROR_STATUSES,
  type ErrorCode,
  expectationFailed,
  headersTooLarge,
  insufficientCredits,
  readErrorStatuses,
  requestTimeout,
  statusOf,
} from '../../src/contract/errors.ts';
import type { OpenAPIV31 } from '../../src/contract/openapi-types.ts';
import { followRef, spec } from '../support/contract.ts';

/**
 * The error codes and their statuses are the contract's: the codes are the `error` of the error
 * body schemas of openapi.yaml (generated/api-types.ts), and each code's status is the status of
 * the responses that document it, read at start-up. Here, both are checked against openapi.yaml
 * itself, and the reader against contracts that contradict themselves.
 */

const resolve = (node: any): any => followRef(node);

/** Every [code, status, example message] that openapi.yaml documents, from its responses' schemas. */
function documentedCodes(): { code: string; status: number; where: string }[] {
  const found: { code: string; status: number; where: string }[] = [];
  const responsesOf = [
    ...Object.entries<any>(spec.paths).flatMap(([path, item]) =>
      Object.entries<any>(item)
        .filter(([method]) => method !== 'parameters')
        .map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation.responses] as const),
    ),
    ['x-refusals-before-operations', spec['x-refusals-before-operations'].responses] as const,
  ];
  for (const [where, responses] of responsesOf) {
    for (const [status, response] of Object.entries<any>(responses)) {
      const error = resolve(resolve(resolve(response).content?.['application/json']?.schema)?.properties?.error);
      if (error === undefined) continue;
      for (const code of error.const !== undefined ? [error.const] : error.enum)
        found.push({ code, status: Number(status), where: `${where} ${status}` });
    }
  }
  return found;
}

describe('error codes and statuses come from openapi.yaml', () => {
  it('one credit is one credit, never 1 credits, in every message that counts them', () => {
    expect(insufficientCredits(1, 0).message).toBe('This call costs 1 credit and the balance is 0.');
    expect(insufficientCredits(3, 2).message).toBe('This call costs 3 credits and the balance is 2.');
    expect(dailyCapReached(1, 1, 1, new Date('2026-11-26T12:00:00Z')).message).toBe(
      'This call costs 1 credit and would take this API key past its daily cap: 1 of 1 credit spent today (UTC). ' +
        'The cap starts afresh at 00:00 UTC.',
    );
    expect(JSON.stringify(spec)).not.toMatch(/\b1 credits\b/);
  });

  it('every documented code answers with the status of the responses that document it', () => {
    const documented = documentedCodes();
    expect(documented.length).toBeGreaterThan(0);
    for (const { code, status, where } of documented)
      expect(new ApiError(code as ErrorCode, 'x').status, where).toBe(status);
  });

  it('the codes with a status are exactly the codes of the error schemas', () => {
    const schemaCodes = Object.values<any>(spec.components.schemas)
      .filter((schema) => schema.properties?.error !== undefined && schema.properties?.message !== undefined)
      .flatMap((schema) =>
        schema.properties.error.const !== undefined ? [schema.properties.error.const] : schema.properties.error.enum,
      );
    expect([...ERROR_STATUSES.keys()].sort()).toEqual([...new Set(schemaCodes)].sort());
    expect(new Set(documentedCodes().map(({ code }) => code))).toEqual(new Set(ERROR_STATUSES.keys()));
  });

  it('the refusals made before any operation are in the contract, with their status and wording', () => {
    const refusals = spec['x-refusals-before-operations'].responses;
    for (const error of [badRequest(), requestTimeout(), expectationFailed()]) {
      const response = resolve(refusals[String(error.status)]);
      expect(response, error.code).toBeDefined();
      const examples = Object.values<any>(response.content['application/json'].examples).map(
        (example) => example.value,
      );
      expect(examples, error.code).toContainEqual({ error: error.code, message: error.message });
    }
    expect(headersTooLarge(65536).status).toBe(431);
  });

  it('statusOf names a code the contract does not document', () => {
    expect(() => statusOf('no_such_code' as ErrorCode)).toThrow(
      'openapi.yaml documents no status for the error code no_such_code',
    );
  });
});

describe('the reader of the statuses refuses a contract that contradicts itself', () => {
  const errorSchema = (codes: string[]) => ({
    type: 'object',
    properties: {
      error: codes.length === 1 ? { type: 'string', const: codes[0] } : { type: 'string', enum: codes },
      message: { type: 'string' },
    },
  });
  const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
  const document = (
    responses: Record<string, unknown>,
    schemas: Record<string, unknown>,
    refusals?: Record<string, unknown>,
  ): OpenAPIV31 => ({
    openapi: '3.1.0',
    info: {},
    paths: { '/a': { get: { responses } } },
    components: { schemas },
    ...(refusals ? { 'x-refusals-before-operations': { responses: refusals } } : {}),
  });

  it('reads the statuses of the operations and of the refusals before them', () => {
    const statuses = readErrorStatuses(
      document(
        { '404': json({ $ref: '#/components/schemas/Gone' }) },
        { Gone: errorSchema(['gone']), Slow: errorSchema(['slow']) },
        { '408': json({ $ref: '#/components/schemas/Slow' }) },
      ),
    );
    expect(Object.fromEntries(statuses)).toEqual({ gone: 404, slow: 408 });
  });

  it('a code documented under two statuses', () => {
    expect(() =>
      readErrorStatuses(document({ '400': json(errorSchema(['bad'])), '422': json(errorSchema(['bad'])) }, {})),
    ).toThrow('openapi.yaml: the error code bad is documented under 400 and under 422 (GET /a)');
  });

  it('an error schema that no response carries', () => {
    expect(() => readErrorStatuses(document({}, { Lost: errorSchema(['lost']) }))).toThrow(
      'openapi.yaml: the error code lost (components/schemas/Lost) is ' +
        "in no operation's responses nor in x-refusals-before-operations",
    );
  });

  it('an error without a const or an enum, or under a status that is no error', () => {
    expect(() =>
      readErrorStatuses(document({ '400': json({ properties: { error: { type: 'string' }, message: {} } }) }, {})),
    ).toThrow('openapi.yaml: the error of GET /a 400 needs a const or an enum of codes');
    expect(() => readErrorStatuses(document({ '200': json(errorSchema(['fine'])) }, {}))).toThrow(
      'which is not an error status',
    );
  });
});
