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
  /** The path parameters its path template declares (`{id}`), in order; none for most. */
  pathParameters?: readonly string[];
  /** The media type of its request body, when it takes one (`application/json`). */
  bodyMediaType?: string;
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
      const declared = [...((item as any).parameters ?? []), ...(operation.parameters ?? [])] as { $ref?: string }[];
      const parameters = declared.map((parameter): { name: string; in: string; required?: boolean } =>
        resolveRef(parameter),
      );
      const queryParameters = parameters
        .filter((parameter) => parameter.in === 'query')
        .map(({ name, required }) => ({ name, required: required === true }));
      const pathParameters = parameters.filter((parameter) => parameter.in === 'path').map(({ name }) => name);
      const [bodyMediaType] = Object.keys(resolveRef(operation.requestBody)?.content ?? {});
      // The media types of its answer with a body: 200, or 201 for an operation that creates.
      const answer = operation.responses?.['200'] ?? operation.responses?.['201'];
      // An answer without a body (204) still negotiates: its errors are JSON.
      const content = resolveRef(answer)?.content;
      const mediaTypes = content === undefined ? ['application/json'] : Object.keys(content);
      operations.push({
        operationId: operation.operationId,
        path,
        method: method.toUpperCase(),
        creditCost,
        summary: typeof operation.summary === 'string' ? operation.summary : operation.operationId,
        queryParameters,
        ...(pathParameters.length > 0 && { pathParameters }),
        ...(bodyMediaType !== undefined && { bodyMediaType }),
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

/**
 * The contract path (its template, `/api/v1/watches/{id}`) a request's path addresses, or
 * undefined: a path without parameters is itself; a template's parameter stands for one
 * non-empty segment, whatever it holds (the parameter's own rule then judges it).
 */
export function pathTemplateOf(path: string, templates: Iterable<string>): string | undefined {
  let found: string | undefined;
  for (const template of templates) {
    if (template === path) return template;
    if (found === undefined && template.includes('{') && templatePattern(template).test(path)) found = template;
  }
  return found;
}

const PATTERNS = new Map<string, RegExp>();

function templatePattern(template: string): RegExp {
  let pattern = PATTERNS.get(template);
  if (pattern === undefined) {
    const escaped = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
    pattern = new RegExp(`^${escaped.join('([^/]+)')}$`);
    PATTERNS.set(template, pattern);
  }
  return pattern;
}

/** The values of a template's path parameters in a path it matches, by name (still percent-encoded). */
export function pathParameterValues(template: string, path: string): Record<string, string> {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const values = templatePattern(template).exec(path)?.slice(1) ?? [];
  return Object.fromEntries(names.map((name, index) => [name, values[index] ?? '']));
}

export function operationAt(
  path: string,
  method: string,
  operations: readonly ContractOperation[] = contractOperations,
): ContractOperation | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  const template = pathTemplateOf(path, new Set(operations.map((op) => op.path)));
  return operations.find((op) => op.path === template && op.method === wanted);
}
