import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createTestApi, type TestApi } from '../support/api.ts';
import { followRef, spec } from '../support/contract.ts';

/**
 * The gate between the service and its contract: the OpenAPI document the running app builds from
 * its registered routes must equal `openapi.yaml` once both are reduced to what a client depends
 * on: operations, parameters, status codes, response media types, schemas and headers, and security.
 */
const STRUCTURAL = [
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'anyOf',
  'oneOf',
];

const deref = (document: any, node: any): any => followRef(node, document);

/** A schema reduced to its structural keywords, with every equivalent spelling made one. */
function reduceSchema(document: any, schema: any): any {
  schema = deref(document, schema);
  if (schema === undefined || schema === null || typeof schema !== 'object') return schema;
  // `allOf: [{$ref}, {description}]` is how a described reference is written; merge the members.
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    return Object.assign(
      {},
      ...allOf.map((member: any) => reduceSchema(document, member)),
      reduceSchema(document, rest),
    );
  }
  const out: any = {};
  for (const keyword of STRUCTURAL) {
    if (!(keyword in schema)) continue;
    const value = schema[keyword];
    if (keyword === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reduceSchema(document, v)]));
      out.propertyOrder = Object.keys(value);
    } else if (keyword === 'items') out.items = reduceSchema(document, value);
    else if (keyword === 'anyOf' || keyword === 'oneOf')
      out[keyword] = value.map((v: any) => reduceSchema(document, v));
    else if (keyword === 'required' || keyword === 'enum') out[keyword] = [...value].map(String).sort();
    else out[keyword] = value;
  }
  // `{type: [T, 'null']}` and `{anyOf: [{type: T}, {type: 'null'}]}` say the same thing.
  if (Array.isArray(out.type)) out.type = [...out.type].sort();
  if (out.const !== undefined && out.enum === undefined) {
    out.enum = [String(out.const)];
    delete out.const;
  }
  // The generated zod of a `format: uuid` string with a `pattern` keeps only the pattern, which
  // says more (a watch id: lower case); the service checks the pattern (contract/watch-request.ts).
  if (out.format === 'uuid' && typeof out.pattern === 'string') delete out.format;
  // The generated zod writes a `format: date` string as its pattern; both say YYYY-MM-DD.
  if (out.format === 'date') {
    delete out.format;
    out.pattern = '^[0-9]{4}-[0-9]{2}-[0-9]{2}$';
  }
  return out;
}

function reduceDocument(document: any) {
  const operations: Record<string, any> = {};
  for (const [path, item] of Object.entries<any>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      if (!['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(method)) continue;
      const responses: Record<string, any> = {};
      for (const [status, response] of Object.entries<any>(operation.responses)) {
        const resolved = deref(document, response);
        responses[status] = {
          headers: Object.keys(resolved.headers ?? {}).sort(),
          mediaTypes: Object.keys(resolved.content ?? {}).sort(),
          schemas: Object.fromEntries(
            Object.entries<any>(resolved.content ?? {}).map(([type, content]) => [
              type,
              reduceSchema(document, content.schema),
            ]),
          ),
        };
      }
      operations[`${method.toUpperCase()} ${path}`] = {
        operationId: operation.operationId,
        // A path item's parameters are each of its operations' (the watch id of /watches/{id}).
        parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p: any) => {
          const parameter = deref(document, p);
          return {
            name: parameter.name,
            in: parameter.in,
            required: parameter.required ?? false,
            schema: reduceSchema(document, parameter.schema),
          };
        }),
        responses,
        security: operation.security ?? document.security ?? [],
      };
    }
  }
  return { operations };
}

describe('openapi.yaml and the running service never drift apart', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it(
    'the document built from the registered routes equals ' +
      'openapi.yaml (operations, parameters, codes, schemas, headers)',
    () => {
      // What the app registered, as an OpenAPI document (security is the contract's: it is not per route).
      const served = api.app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: { title: 'Served routes', version: '0' },
        security: spec.security,
      });
      const fromRoutes = reduceDocument(served);
      const fromSpec = reduceDocument(spec);
      expect(Object.keys(fromRoutes.operations).sort()).toEqual(Object.keys(fromSpec.operations).sort());
      for (const key of Object.keys(fromSpec.operations)) {
        expect(fromRoutes.operations[key], key).toEqual(fromSpec.operations[key]);
      }
    },
  );

  it('/openapi.json and /openapi.yaml serve the contract itself', async () => {
    const json = await api.app.request('/openapi.json');
    expect(json.status).toBe(200);
    // Only `info.contact` is the running service's own (its operator, its account page): R13.5.
    const served = await json.json();
    expect({ ...served, info: { ...served.info, contact: spec.info.contact } }).toEqual(spec);
    const yaml = await api.app.request('/openapi.yaml');
    expect(yaml.status).toBe(200);
    expect(yaml.headers.get('content-type')).toContain('yaml');
    expect({ ...parse(await yaml.text()), info: { ...served.info, contact: spec.info.contact } }).toEqual(spec);
  });
});
