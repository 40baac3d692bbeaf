// @module-tag database-free
import { describe, expect, it } from 'vitest';
import { spec } from '../support/contract.ts';

/**
 * What customers' code generators and reference docs need from every operation of openapi.yaml,
 * beyond what the linter (npm run lint:openapi) checks: summary, description, tags, an example
 * for every response, and the headers each kind of answer carries.
 */
const resolve = (node: any): any => {
  while (node && typeof node.$ref === 'string') {
    node = node.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((at: any, part: string) => at[part], spec);
  }
  return node;
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Every operation: a path item's methods (its `parameters` are shared by them, not an operation). */
const operations = Object.entries<any>(spec.paths).flatMap(([path, item]) =>
  Object.entries<any>(item)
    .filter(([method]) => METHODS.includes(method))
    .map(([method, operation]) => ({ label: `${method.toUpperCase()} ${path}`, operation })),
);

/** Sent on every answer: the request id, and the caching and content-type headers. */
const EVERY_ANSWER = ['X-Request-Id', 'Cache-Control', 'X-Content-Type-Options'];

/** The headers every answer with this status documents as always sent (`required: true`). */
const REQUIRED_HEADERS: Record<string, string[]> = {
  '200': [...EVERY_ANSWER, 'X-Credits-Charged', 'X-Credits-Remaining'],
  '201': [...EVERY_ANSWER, 'X-Credits-Charged', 'X-Credits-Remaining'],
  '204': [...EVERY_ANSWER, 'X-Credits-Charged', 'X-Credits-Remaining'],
  '400': [...EVERY_ANSWER, 'X-Credits-Charged', 'X-Credits-Remaining'],
  '409': [...EVERY_ANSWER, 'X-Credits-Charged', 'X-Credits-Remaining'],
  '415': [...EVERY_ANSWER, 'X-Credits-Charged', 'X-Credits-Remaining'],
  '401': [...EVERY_ANSWER, 'WWW-Authenticate'],
  '402': [...EVERY_ANSWER, 'X-Credits-Charged', 'X-Credits-Remaining'],
  '403': [...EVERY_ANSWER, 'Retry-After', 'X-Credits-Charged', 'X-Credits-Remaining'],
  '404': [...EVERY_ANSWER, 'X-Credits-Charged', 'X-Credits-Remaining'],
  '405': [...EVERY_ANSWER, 'Allow'],
  '406': [...EVERY_ANSWER, 'X-Credits-Charged', 'X-Credits-Remaining'],
  '422': [...EVERY_ANSWER, 'X-Credits-Charged', 'X-Credits-Remaining'],
  '429': [...EVERY_ANSWER, 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'X-Credits-Charged', 'X-Credits-Remaining'],
  '500': EVERY_ANSWER,
  '503': [...EVERY_ANSWER, 'Retry-After'],
};

/** An operation that needs no key (`security: []`, the operations endpoints) sends no credit headers. */
const needsNoKey = (operation: any) => Array.isArray(operation.security) && operation.security.length === 0;

describe('openapi.yaml documents every operation completely', () => {
  it.each(operations)('$label has an operationId, a summary, a description, tags and a price', ({ operation }) => {
    expect(operation.operationId).toMatch(/^[a-z][A-Za-z]+$/);
    expect(operation.summary?.length).toBeGreaterThan(5);
    expect(operation.description?.length).toBeGreaterThan(40);
    expect(operation.tags?.length).toBeGreaterThan(0);
    expect(Number.isInteger(operation['x-credit-cost'])).toBe(true);
  });

  it.each(operations)(
    '$label: every response has an example and documents the headers it always carries',
    ({ operation }) => {
      for (const [status, reference] of Object.entries<any>(operation.responses)) {
        const response = resolve(reference);
        for (const [mediaType, content] of Object.entries<any>(response.content ?? {})) {
          expect(Object.keys(content.examples ?? {}).length, `${status} ${mediaType} examples`).toBeGreaterThan(0);
        }
        const required = Object.entries<any>(response.headers ?? {})
          .filter(([, header]) => resolve(header).required === true)
          .map(([name]) => name);
        const expected =
          needsNoKey(operation) && status === '200' ? EVERY_ANSWER : (REQUIRED_HEADERS[status] ?? EVERY_ANSWER);
        expect(required.sort(), `${status} required headers`).toEqual([...expected].sort());
      }
    },
  );

  it.each(operations.filter(({ operation }) => needsNoKey(operation)))(
    '$label needs no key and is free',
    ({ operation }) => {
      expect(operation['x-credit-cost']).toBe(0);
      expect(operation.responses['401']).toBeUndefined();
      expect(operation.tags).toEqual(['Operations']);
    },
  );
});
