import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { projectRoot } from '../../src/config.ts';
import { pathTemplateOf } from '../../src/contract/operations.ts';

/**
 * Validates every response a test receives against `openapi.yaml` itself (not the generated code):
 * the status code must be documented for the operation, the content type too, the body must match
 * its schema with its fields in the documented order, and the documented headers must be present
 * and well-typed (among them `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`).
 */
export const spec = parse(fs.readFileSync(path.join(projectRoot, 'openapi.yaml'), 'utf8'));
const SPEC_ID = 'https://alk.local/openapi.json';

/** What `node` is once its `$ref`s (local JSON pointers) are followed in `document`: read from the YAML, not src/. */
export function followRef(node: any, document: any = spec): any {
  while (node && typeof node.$ref === 'string') {
    node = node.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((at: any, part: string) => at[part.replace(/~1/g, '/')], document);
  }
  return node;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ ...spec, $id: SPEC_ID });

function resolve<T = any>(node: any): T {
  while (node && typeof node.$ref === 'string') {
    const pointer = node.$ref.replace(/^#\//, '').split('/');
    node = pointer.reduce((at: any, part: string) => at[part.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
  }
  return node;
}

const validators = new Map<string, ValidateFunction>();
function validatorFor(schema: any): ValidateFunction {
  const ref = schema.$ref ? `${SPEC_ID}${schema.$ref}` : undefined;
  const cacheKey = ref ?? JSON.stringify(schema);
  let validate = validators.get(cacheKey);
  if (!validate) {
    validate = ajv.compile(ref ? { $ref: ref } : schema);
    validators.set(cacheKey, validate);
  }
  return validate;
}

/** Field order: the body's keys must appear in the order the schema lists its properties. */
function assertFieldOrder(body: unknown, schema: any, where: string): void {
  schema = resolve(schema);
  if (Array.isArray(body) && schema?.items) {
    for (const [index, item] of body.entries()) assertFieldOrder(item, schema.items, `${where}[${index}]`);
    return;
  }
  if (body === null || typeof body !== 'object' || !schema?.properties) return;
  const documented = Object.keys(schema.properties);
  const actual = Object.keys(body);
  const expected = documented.filter((key) => actual.includes(key));
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(
      `${where}: fields ${JSON.stringify(actual)} are not in the documented order ${JSON.stringify(expected)}`,
    );
  }
  for (const key of actual) assertFieldOrder((body as any)[key], schema.properties[key], `${where}.${key}`);
}

export interface ValidatedResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** Response headers that the contract must document on every answer that sends them. */
const MUST_BE_DOCUMENTED = new RegExp(
  '^(x-credits-|www-authenticate$|allow$|retry-after$|ratelimit$|ratelimit-policy$|idempotent-replayed$|' +
    'cache-control$|x-content-type-options$|x-sandbox$|x-total-count$|x-truncated$)',
);

export async function validateResponse(method: string, url: string, response: Response): Promise<ValidatedResponse> {
  const { pathname } = new URL(url, 'http://localhost');
  const text = await response.text();
  const where = `${method} ${pathname} → ${response.status}`;
  const requestId = response.headers.get('x-request-id');
  if (!requestId) throw new Error(`${where}: no X-Request-Id header`);
  // A path with parameters (`/api/v1/watches/{id}`) is validated against its template.
  const template = pathTemplateOf(pathname, Object.keys(spec.paths));
  const pathItem = template === undefined ? undefined : spec.paths[template];
  const isHead = method === 'HEAD';
  const contentType = response.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  // JSON is parsed; a text answer (the metrics) is validated as the string it is.
  const body: any =
    isHead || (response.status === 204 && text === '')
      ? undefined
      : mediaType === 'application/json'
        ? JSON.parse(text)
        : text;
  if (!pathItem) {
    // Unknown paths are outside the contract; they still answer the documented error shape.
    if (response.status !== 404 || mediaType !== 'application/json' || body?.error !== 'not_found') {
      throw new Error(`${where}: unknown path must answer 404 not_found in JSON`);
    }
    return { status: response.status, headers: response.headers, body, text };
  }
  // A method the path has not (a 405) is documented by each of the path's operations alike.
  const operation =
    pathItem[method.toLowerCase() === 'head' ? 'get' : method.toLowerCase()] ??
    pathItem.get ??
    Object.values<any>(pathItem).find((each) => each?.responses !== undefined);
  const documented = operation.responses[String(response.status)];
  if (!documented)
    throw new Error(`${where}: status ${response.status} is not documented for ${operation.operationId}`);
  const definition = resolve(documented);
  for (const [name, reference] of Object.entries<any>(definition.headers ?? {})) {
    const header = resolve(reference);
    const value = response.headers.get(name);
    if (value === null) {
      if (header.required) throw new Error(`${where}: required header ${name} is missing`);
      continue;
    }
    const schema = header.schema;
    const typed = resolve(schema).type === 'integer' && /^-?[0-9]+$/.test(value) ? Number(value) : value;
    if (!validatorFor(schema)(typed))
      throw new Error(`${where}: header ${name}: ${JSON.stringify(value)} does not match ${JSON.stringify(schema)}`);
  }
  for (const name of response.headers.keys()) {
    if (MUST_BE_DOCUMENTED.test(name) && !Object.keys(definition.headers ?? {}).some((h) => h.toLowerCase() === name)) {
      throw new Error(`${where}: header ${name} is sent but not documented`);
    }
  }
  if (!isHead && definition.content === undefined && text !== '')
    throw new Error(`${where}: a response documented without a body has one: ${text.slice(0, 200)}`);
  if (!isHead && definition.content !== undefined) {
    const content = definition.content[mediaType];
    if (!content)
      throw new Error(
        `${where}: content type ${contentType} is not documented ` +
          `(${Object.keys(definition.content).join(', ')}): ${text.slice(0, 200)}`,
      );
    const schema = content.schema;
    const validate = validatorFor(schema);
    if (!validate(body))
      throw new Error(
        `${where}: body does not match the schema: ${ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`,
      );
    assertFieldOrder(body, schema, where);
  }
  return { status: response.status, headers: response.headers, body, text };
}

/**
 * Validates a webhook post's body against the contract's `webhooks:` entry `name` (its request
 * body's schema, and the documented field order); throws with the reasons when it does not match.
 */
export function validateWebhookPayload(name: 'watchNews' | 'lowBalanceAlert', body: string): any {
  const webhook = spec.webhooks?.[name]?.post;
  if (!webhook) throw new Error(`openapi.yaml has no webhook ${name}`);
  const schema = webhook.requestBody.content['application/json'].schema;
  const parsed = JSON.parse(body);
  const validate = validatorFor(schema);
  if (!validate(parsed))
    throw new Error(`webhook ${name}: ${JSON.stringify(validate.errors)} for ${body.slice(0, 2000)}`);
  assertFieldOrder(parsed, schema, `webhook ${name}`);
  return parsed;
}
