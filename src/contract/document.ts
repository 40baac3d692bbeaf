import contract from '../../generated/openapi.json' with { type: 'json' };
import type { OpenAPIV31 } from './openapi-types.ts';

/** The contract, as generated from openapi.yaml: what the service reads its rules from at start-up. */
export const openapiDocument = contract as unknown as OpenAPIV31;

/**
 * A `$ref` within the contract, followed (a node without one is returned as it is). The contract
 * is JSON walked by path, so what it returns is untyped; callers check what they read.
 */
export function resolveRef(node: unknown, document: OpenAPIV31 = openapiDocument): any {
  let at = node as { $ref?: unknown } | undefined;
  while (typeof at?.$ref === 'string') {
    const ref: string = at.$ref;
    at = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((parent: any, part) => parent?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], document as unknown);
    if (at === undefined) throw new Error(`openapi.yaml: ${ref} does not exist`);
  }
  return at;
}
