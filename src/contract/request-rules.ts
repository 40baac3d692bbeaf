import { resolveRef as follow, openapiDocument } from './document.ts';
import type { OpenAPIV31 } from './openapi-types.ts';

/**
 * What the contract states about requests that the edge applies itself, read from the contract at
 * start-up (generated/openapi.json, from openapi.yaml), so that each is stated there only: the
 * limits and patterns of parameter and header schemas, the key's security schemes and the query
 * parameters refused as credentials (`x-credential-parameters`). A rule missing from the contract
 * stops the start with an error that names it.
 */

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/**
 * The schema of the parameter `name` in `location` (a header name in any case), as every operation
 * that declares it declares it: they must agree, since one rule serves them all.
 */
export function parameterSchema(
  location: 'query' | 'header',
  name: string,
  document: OpenAPIV31 = openapiDocument,
): any {
  const where = `openapi.yaml: the ${location} parameter "${name}"`;
  const same = (declared: string) =>
    location === 'header' ? declared.toLowerCase() === name.toLowerCase() : declared === name;
  const schemas = new Set<string>();
  let schema: any;
  for (const item of Object.values(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = follow(item[method], document);
      for (const reference of operation?.parameters ?? []) {
        const parameter = follow(reference, document);
        if (parameter.in !== location || !same(parameter.name)) continue;
        schema = follow(parameter.schema, document);
        schemas.add(JSON.stringify(schema));
      }
    }
  }
  if (schema === undefined) throw new Error(`${where} is declared by no operation`);
  if (schemas.size > 1) throw new Error(`${where} has ${schemas.size} different schemas; its rule needs one`);
  return schema;
}

/** The schema of the response header `name` of components/headers. */
export function headerSchema(name: string, document: OpenAPIV31 = openapiDocument): any {
  const header = follow(document.components?.headers?.[name], document);
  if (header === undefined) throw new Error(`openapi.yaml: components/headers/${name} is missing`);
  return follow(header.schema, document);
}

/** A string schema's `pattern`, `minLength` and `maxLength`, as JSON Schema applies them. */
export interface StringRule {
  pattern: RegExp;
  minLength: number;
  maxLength: number;
}

/** The length of `text` as JSON Schema counts it: in Unicode code points. */
export function codePoints(text: string): number {
  return [...text].length;
}

export function maxLengthOf(schema: any, where: string): number {
  const { maxLength } = schema ?? {};
  if (!Number.isInteger(maxLength) || maxLength < 1)
    throw new Error(`${where} needs a positive integer maxLength, the limit the service applies`);
  return maxLength;
}

/** The string rule of `schema`, which must state all three keywords. */
export function stringRule(schema: any, where: string): StringRule {
  const { pattern, minLength = 0 } = schema ?? {};
  if (schema?.type !== 'string' || typeof pattern !== 'string')
    throw new Error(`${where} needs a string schema with a pattern, the rule the service applies`);
  if (!Number.isInteger(minLength) || minLength < 0)
    throw new Error(`${where}: minLength must be a non-negative integer`);
  // JSON Schema patterns are ECMA-262 regular expressions, not anchored, over code points.
  return { pattern: new RegExp(pattern, 'u'), minLength, maxLength: maxLengthOf(schema, where) };
}

export function meetsRule(rule: StringRule, text: string): boolean {
  const length = codePoints(text);
  return length >= rule.minLength && length <= rule.maxLength && rule.pattern.test(text);
}

/** How a key may be presented: the contract's two security schemes, either of which suffices. */
export interface KeySchemes {
  /** The `http` scheme's name (`bearer`) as `Authorization: <scheme> <key>` spells it, in any case. */
  authorizationScheme: string;
  /** The header of the `apiKey` scheme (`x-api-key`). */
  apiKeyHeader: string;
}

export function keySchemes(document: OpenAPIV31 = openapiDocument): KeySchemes {
  const where = 'openapi.yaml: components/securitySchemes';
  const schemes = Object.entries<any>(document.components?.securitySchemes ?? {}).map(
    ([name, scheme]) => [name, follow(scheme, document)] as const,
  );
  const http = schemes.filter(([, scheme]) => scheme.type === 'http');
  const apiKey = schemes.filter(([, scheme]) => scheme.type === 'apiKey');
  const other = schemes.filter(([, scheme]) => scheme.type !== 'http' && scheme.type !== 'apiKey');
  if (other.length > 0)
    throw new Error(`${where}: ${other.map(([name]) => name).join(', ')} has no reader in http/authentication.ts`);
  if (http.length !== 1 || !/^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*$/.test(http[0][1].scheme ?? '')) {
    throw new Error(`${where} needs one http scheme with its token (such as bearer)`);
  }
  if (
    apiKey.length !== 1 ||
    apiKey[0][1].in !== 'header' ||
    typeof apiKey[0][1].name !== 'string' ||
    apiKey[0][1].name === ''
  ) {
    throw new Error(`${where} needs one apiKey scheme in a header`);
  }
  // The edge takes either scheme alone; a requirement that asks for two at once would need both.
  for (const requirement of [document.security ?? [], ...operationSecurity(document)].flat()) {
    if (Object.keys(requirement).length > 1)
      throw new Error(
        `openapi.yaml: a security requirement asks for ` +
          `${Object.keys(requirement).join(' and ')} together; the service takes either alone`,
      );
  }
  return { authorizationScheme: http[0][1].scheme, apiKeyHeader: apiKey[0][1].name };
}

function operationSecurity(document: OpenAPIV31): Record<string, string[]>[][] {
  return Object.values(document.paths).flatMap((item) =>
    HTTP_METHODS.map((method) => follow(item[method], document)?.security).filter(Array.isArray),
  );
}

/**
 * The query parameters that carry credentials by common convention (`x-credential-parameters`),
 * as the service compares names: lower case, `-` as `_`.
 */
export function credentialParameters(document: OpenAPIV31 = openapiDocument): ReadonlySet<string> {
  const names = document['x-credential-parameters'];
  if (!Array.isArray(names) || names.length === 0 || !names.every((name) => typeof name === 'string' && name !== '')) {
    throw new Error('openapi.yaml needs x-credential-parameters, the query parameters refused as credentials');
  }
  return new Set(names.map(credentialName));
}

/** A query parameter's name as credential names are compared: case-insensitively, `-` and `_` alike. */
export function credentialName(name: string): string {
  return name.toLowerCase().replace(/-/g, '_');
}
