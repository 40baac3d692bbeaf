import { openapiDocument } from './document.ts';
import type { OpenAPIV31 } from './openapi-types.ts';

/** The days of a usage range (docs/product-rules.md R2.8.1, R2.8.3): its default length and its longest. */
export interface UsageRange {
  /** Days in the range when `from` is absent, ending with `to`. */
  defaultDays: number;
  /** The longest range a call may ask for, in days. */
  maxDays: number;
}

/** Read from `getAccountUsage`'s `x-default-days` and `x-max-days` at start-up. */
export function usageRange(document: OpenAPIV31 = openapiDocument): UsageRange {
  const operation = Object.values(document.paths)
    .flatMap((item: any) => Object.values(item ?? {}))
    .find((candidate: any) => candidate?.operationId === 'getAccountUsage') as any;
  const { 'x-default-days': defaultDays, 'x-max-days': maxDays } = operation ?? {};
  if (!Number.isInteger(defaultDays) || !Number.isInteger(maxDays) || defaultDays < 1 || maxDays < defaultDays)
    throw new Error(
      'openapi.yaml: getAccountUsage needs x-default-days and x-max-days, whole days, the default the shorter',
    );
  return { defaultDays, maxDays };
}
