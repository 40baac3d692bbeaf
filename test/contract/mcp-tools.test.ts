// @module-tag database-free
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/config.ts';
import { mcpClientConfig } from '../../src/contract/mcp-config.ts';
import { mcpTools } from '../../src/contract/mcp-tools.ts';
import { followRef, spec } from '../support/contract.ts';

/**
 * The drift test of the MCP endpoint's tools: each tool must say what its operation in
 * `openapi.yaml` (read here from the YAML, not from generated/) says: its name, its price, its
 * description, every query parameter with its schema (patterns, lengths, bounds) and whether it is
 * required, and the schema of its JSON `200` body. Any disagreement fails.
 */
const deref = (node: any): any => followRef(node);

/** `schema` with its references followed, without the examples (which are not JSON Schema). */
function resolved(schema: any): any {
  schema = deref(schema);
  if (Array.isArray(schema)) return schema.map(resolved);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: any = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword !== 'example' && keyword !== 'examples') out[keyword] = resolved(value);
  }
  return out;
}

/** Whether an operation names a resource in its path (`/api/v1/watches/{id}`). */
const hasPathParameters = (item: any, operation: any) =>
  [...(item.parameters ?? []), ...(operation.parameters ?? [])].some(
    (parameter: any) => deref(parameter).in === 'path',
  );

/** The operations a key reads by its query: under /api/, `GET`, no path parameters (R21.2). */
const operations = Object.entries(spec.paths as Record<string, any>)
  .filter(([path]) => path.startsWith('/api/'))
  .flatMap(([path, item]) =>
    Object.entries(item as Record<string, any>)
      .filter(([method, operation]) => method === 'get' && !hasPathParameters(item, operation))
      .map(([method, operation]) => ({ path, method, operation })),
  );

describe('the MCP tools equal their operations in openapi.yaml', () => {
  const tools = mcpTools();

  it('one tool per operation a key calls (under /api/), named by its operationId, in the same order', () => {
    expect(tools.map((tool) => tool.name)).toEqual(operations.map(({ operation }) => operation.operationId));
    expect(tools.map((tool) => [tool.operation.path, tool.operation.method])).toEqual(
      operations.map(({ path, method }) => [path, method.toUpperCase()]),
    );
  });

  it('an operation that changes something or names a resource in its path is no tool', () => {
    const names = tools.map((tool) => tool.name);
    expect(names).toContain('listWatches');
    for (const name of ['createWatch', 'getWatch', 'deleteWatch', 'listWatchEvents']) expect(names).not.toContain(name);
  });

  for (const { operation } of operations) {
    it(`${operation.operationId}: description, price, input and output schemas`, () => {
      const tool = tools.find((candidate) => candidate.name === operation.operationId)!;
      const price = operation['x-credit-cost'];
      expect(tool.title).toBe(operation.summary);
      expect(tool.description.startsWith(operation.description.trim())).toBe(true);
      expect(tool.description).toContain(price === 0 ? 'free (0 credits)' : `${price} credit`);

      const query = (operation.parameters ?? []).map(deref).filter((parameter: any) => parameter.in === 'query');
      expect(Object.keys(tool.inputSchema.properties)).toEqual(query.map((parameter: any) => parameter.name));
      for (const parameter of query) {
        // A schema the service accepts more than the pattern of states none to a client (R21.2).
        const { 'x-accepts-beyond-pattern': beyond, pattern, maxLength, ...schema } = resolved(parameter.schema);
        expect(tool.inputSchema.properties[parameter.name]).toEqual({
          ...schema,
          ...(beyond !== true && { pattern, maxLength }),
          description: parameter.description.trim(),
        });
      }
      expect(tool.inputSchema.required).toEqual(
        query.filter((parameter: any) => parameter.required === true).map((parameter: any) => parameter.name),
      );
      expect(tool.inputSchema.additionalProperties).toBe(false);
      expect(tool.outputSchema).toEqual(resolved(deref(operation.responses['200']).content['application/json'].schema));
    });
  }

  it('the patterns and lengths of the parameters reach the tools', () => {
    const name = tools.find((tool) => tool.name === 'getAdvertiserSummary')!.inputSchema.properties.name;
    const declared = resolved(deref(spec.components.parameters.name).schema);
    expect(declared.maxLength).toBeGreaterThan(0);
    expect(name).toMatchObject({ type: 'string', maxLength: declared.maxLength });
    const from = tools.find((tool) => tool.name === 'getAccountUsage')!.inputSchema.properties.from;
    expect(from).toMatchObject({ pattern: '^[2-9][0-9]{3}-[0-9]{2}-[0-9]{2}$', maxLength: 10 });
  });

  it('docs/mcp.md shows the configuration the keys page shows and every tool with its price', () => {
    const docs = fs.readFileSync(path.join(projectRoot, 'docs', 'mcp.md'), 'utf8');
    expect(docs).toContain(`\`\`\`json\n${mcpClientConfig(new URL('http://localhost:3000'))}\n\`\`\``);
    for (const tool of tools) {
      const price = tool.operation.creditCost;
      const priced = price === 0 ? 'free' : `${price} credit${price === 1 ? '' : 's'}`;
      expect(docs).toMatch(new RegExp(`^\\| \`${tool.name}\` \\| [^|]+ \\| ${priced} \\|`, 'm'));
    }
  });
});
