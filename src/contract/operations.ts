import { openapiDocument, resolveRef } from './document.ts';

/** A query parameter an operation declares. */
export interface ContractQueryParameter {
  name: string;
  /** The parameter's `required`: whether its absence is refused (`missing_<name>`) or allowed. */
  required: boolean;
}

/** An operation of the contract, as the request path needs it. */
export interface ContractOperation {
  operationId: string;
  path: string;
  method: string;
  /** Price in credits, from the operation's `x-credit-cost`. */
  creditCost: number;
  /** Its name for people, from the operation's `summary` (the account page shows it). */
  summary: string;
  /** The query parameters it declares, in order. */
  queryParameters: readonly ContractQueryParameter[];
  /** The media types its `200` answers in, in the contract's order: the first is the default. */
  mediaTypes: readonly string[];
  /**
   * Set only for the benchmark's framework floor (scripts/bench/operations.ts), never by the
   * contract: answered behind every check but billing, so without the database.
   */
  unbilled?: true;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function readOperations(): ContractOperation[] {
  const operations: ContractOperation[] = [];
  for (const [path, item] of Object.entries(openapiDocument.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = (item as Record<string, any>)[method];
      if (!operation) continue;
      const creditCost = operation['x-credit-cost'];
      if (!Number.isInteger(creditCost) || creditCost < 0) {
        throw new Error(`openapi.yaml: ${method.toUpperCase()} ${path} needs a non-negative integer x-credit-cost`);
      }
      const parameters = ((operation.parameters ?? []) as { $ref?: string }[]).map(
        (parameter): { name: string; in: string; required?: boolean } => resolveRef(parameter),
      );
      const queryParameters = parameters
        .filter((parameter) => parameter.in === 'query')
        .map(({ name, required }) => ({ name, required: required === true }));
      const mediaTypes = Object.keys(resolveRef(operation.responses?.['200'])?.content ?? {});
      operations.push({
        operationId: operation.operationId,
        path,
        method: method.toUpperCase(),
        creditCost,
        summary: typeof operation.summary === 'string' ? operation.summary : operation.operationId,
        queryParameters,
        mediaTypes,
      });
    }
  }
  return operations;
}

export const contractOperations: readonly ContractOperation[] = readOperations();

/** The methods each path of `operations` answers; HEAD is implied by GET, as in HTTP. */
export function methodsByPath(operations: readonly ContractOperation[]): ReadonlyMap<string, readonly string[]> {
  return new Map(
    [...new Set(operations.map((op) => op.path))].map((path) => {
      const methods = operations.filter((op) => op.path === path).map((op) => op.method);
      if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
      return [path, methods];
    }),
  );
}

/** The methods each contract path answers. */
export const allowedMethods: ReadonlyMap<string, readonly string[]> = methodsByPath(contractOperations);

export function operationAt(
  path: string,
  method: string,
  operations: readonly ContractOperation[] = contractOperations,
): ContractOperation | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  return operations.find((op) => op.path === path && op.method === wanted);
}
