import { describe, expect, it } from 'vitest';
import { spec } from '../support/contract.ts';

/**
 * What customers' code generators and reference docs need from every operation of openapi.yaml,
 * beyond what the linter (npm run lint:openapi) checks: summary, description, tags, an example
 * for every response, and the headers each kind of answer carries.
 */
const resolve = (node: any): any => {
  while (node && typeof node.$ref === 'string') {
    node = node.$ref.replace(/^#\//, '').split('/').reduce((at: any, part: string) => at[part], spec);
  }
  return node;
};

const operations = Object.entries<any>(spec.paths).flatMap(([path, item]) =>
  Object.entries<any>(item).map(([method, operation]) => ({ label: `${method.toUpperCase()} ${path}`, operation })),
);

/** The headers every answer with this status documents as always sent (`required: true`). */
const REQUIRED_HEADERS: Record<string, string[]> = {
  '200': ['X-Request-Id', 'X-Credits-Charged', 'X-Credits-Remaining'],
  '400': ['X-Request-Id', 'X-Credits-Charged', 'X-Credits-Remaining'],
  '401': ['X-Request-Id', 'WWW-Authenticate'],
  '402': ['X-Request-Id', 'X-Credits-Charged', 'X-Credits-Remaining'],
  '404': ['X-Request-Id', 'X-Credits-Charged', 'X-Credits-Remaining'],
  '405': ['X-Request-Id', 'Allow'],
  '422': ['X-Request-Id', 'X-Credits-Charged', 'X-Credits-Remaining'],
  '429': ['X-Request-Id', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'X-Credits-Charged', 'X-Credits-Remaining'],
  '500': ['X-Request-Id'],
  '503': ['X-Request-Id', 'Retry-After'],
};

describe('openapi.yaml documents every operation completely', () => {
  it.each(operations)('$label has an operationId, a summary, a description, tags and a price', ({ operation }) => {
    expect(operation.operationId).toMatch(/^[a-z][A-Za-z]+$/);
    expect(operation.summary?.length).toBeGreaterThan(5);
    expect(operation.description?.length).toBeGreaterThan(40);
    expect(operation.tags?.length).toBeGreaterThan(0);
    expect(Number.isInteger(operation['x-credit-cost'])).toBe(true);
  });

  it.each(operations)('$label: every response has an example and documents the headers it always carries', ({ operation }) => {
    for (const [status, reference] of Object.entries<any>(operation.responses)) {
      const response = resolve(reference);
      const examples = response.content['application/json'].examples ?? {};
      expect(Object.keys(examples).length, `${status} examples`).toBeGreaterThan(0);
      const required = Object.entries<any>(response.headers ?? {})
        .filter(([, header]) => resolve(header).required === true)
        .map(([name]) => name);
      expect(required.sort(), `${status} required headers`).toEqual([...(REQUIRED_HEADERS[status] ?? ['X-Request-Id'])].sort());
    }
  });
});
