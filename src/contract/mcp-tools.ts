import { creditsText } from './credits-text.ts';
import { openapiDocument, resolveRef } from './document.ts';
import type { OpenAPIV31 } from './openapi-types.ts';
import { type ContractOperation, contractOperations } from './operations.ts';

/** A JSON Schema object, as the contract writes it (OpenAPI 3.1 schemas are JSON Schema 2020-12). */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * A tool of the MCP endpoint, read from one operation of the contract (docs/product-rules.md R21.2):
 * its name is the operationId, its description the operation's with its price, its input the
 * operation's query parameters and its output the operation's JSON `200` body.
 */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object'; properties: Record<string, JsonSchema>; required: string[] };
  outputSchema: JsonSchema & { type: 'object' };
  /** The operation the tool calls. */
  operation: ContractOperation;
}

/**
 * The operations that are tools (docs/product-rules.md R21.1): every operation a key reads by its
 * query, under /api/, with `GET` and without path parameters: the billed lookups, the free account
 * ones and the list of watches. An operation that changes something (creating or deleting a watch)
 * or that names a resource in its path is a call of the HTTP API only. Health, readiness and
 * metrics are the operator's, not a customer's.
 */
export function isToolOperation(operation: ContractOperation): boolean {
  return (
    operation.path.startsWith('/api/') &&
    operation.method === 'GET' &&
    (operation.pathParameters ?? []).length === 0 &&
    operation.bodyMediaType === undefined
  );
}

/** `schema` with every `$ref` in it replaced by what it points to, and no `example`s (not JSON Schema). */
export function inlineSchema(schema: unknown, document: OpenAPIV31 = openapiDocument, seen: string[] = []): any {
  if (Array.isArray(schema)) return schema.map((item) => inlineSchema(item, document, seen));
  if (schema === null || typeof schema !== 'object') return schema;
  const ref = (schema as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    if (seen.includes(ref)) throw new Error(`openapi.yaml: ${ref} refers to itself; a tool's schema cannot`);
    return inlineSchema(resolveRef(schema, document), document, [...seen, ref]);
  }
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([keyword]) => keyword !== 'example' && keyword !== 'examples')
      .map(([keyword, value]) => [keyword, inlineSchema(value, document, seen)]),
  );
}

/** What the description of a tool says of its price: the operation's `x-credit-cost`. */
export function priceSentence(creditCost: number): string {
  return creditCost === 0
    ? 'Price: free (0 credits).'
    : `Price: ${creditsText(creditCost)} per call (x-credit-cost), the same as the HTTP call.`;
}

function toolOf(operation: ContractOperation, document: OpenAPIV31): McpTool {
  const item = resolveRef((document.paths as Record<string, any>)[operation.path])[operation.method.toLowerCase()];
  const parameters = ((item.parameters ?? []) as unknown[])
    .map((parameter) => resolveRef(parameter, document))
    .filter((parameter) => parameter.in === 'query');
  const properties: Record<string, JsonSchema> = {};
  for (const parameter of parameters) {
    const { 'x-accepts-beyond-pattern': beyond, ...schema } = inlineSchema(parameter.schema, document);
    // A client that checks its arguments against the tool's schema must not refuse what the service accepts.
    if (beyond === true) {
      delete schema.pattern;
      delete schema.maxLength;
    }
    properties[parameter.name] = {
      ...schema,
      ...(typeof parameter.description === 'string' && { description: parameter.description.trim() }),
    };
  }
  const required = parameters.filter((parameter) => parameter.required === true).map(({ name }) => name);
  const json = resolveRef(item.responses?.['200'], document)?.content?.['application/json']?.schema;
  const outputSchema = inlineSchema(json, document);
  if (outputSchema?.type !== 'object') {
    throw new Error(`openapi.yaml: ${operation.operationId}'s 200 JSON body must be an object to be a tool's output`);
  }
  const description = typeof item.description === 'string' ? item.description.trim() : operation.summary;
  return {
    name: operation.operationId,
    title: operation.summary,
    description: `${description}\n\n${priceSentence(operation.creditCost)}`,
    inputSchema: { type: 'object', properties, required, additionalProperties: false },
    outputSchema,
    operation,
  };
}

/** The MCP endpoint's tools, one per operation a key calls, in the contract's order. */
export function mcpTools(
  operations: readonly ContractOperation[] = contractOperations,
  document: OpenAPIV31 = openapiDocument,
): McpTool[] {
  return operations.filter(isToolOperation).map((operation) => toolOf(operation, document));
}
