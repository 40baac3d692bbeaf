// @module-tag database-free
import { describe, expect, it } from 'vitest';
import { openapiDocument } from '../../src/contract/document.ts';
import type { OpenAPIV31 } from '../../src/contract/openapi-types.ts';
import { usageRange } from '../../src/contract/usage-range.ts';

describe('the usage range (docs/product-rules.md R2.8.1, R2.8.3)', () => {
  it('its default and longest lengths are the contract’s x-default-days and x-max-days', () => {
    expect(usageRange()).toEqual({ defaultDays: 30, maxDays: 366 });
    const usage = openapiDocument.paths['/api/v1/account/usage']?.get as any;
    expect(usageRange()).toEqual({ defaultDays: usage['x-default-days'], maxDays: usage['x-max-days'] });
  });

  it('the start fails when the contract does not state them', () => {
    const withoutRange = structuredClone(openapiDocument) as any;
    delete withoutRange.paths['/api/v1/account/usage'].get['x-max-days'];
    expect(() => usageRange(withoutRange as OpenAPIV31)).toThrow(/x-default-days and x-max-days/);
  });
});
