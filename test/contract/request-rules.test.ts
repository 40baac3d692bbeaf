// @module-tag database-free
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { openapiDocument } from '../../src/contract/document.ts';
import type { OpenAPIV31 } from '../../src/contract/openapi-types.ts';
import {
  credentialParameters,
  headerSchema,
  keySchemes,
  maxLengthOf,
  meetsRule,
  parameterSchema,
  stringRule,
} from '../../src/contract/request-rules.ts';
import { rootDomain } from '../../src/contract/root-domain.ts';
import { spec } from '../support/contract.ts';

/**
 * The request rules the service reads from the contract at start-up (src/contract/request-rules.ts),
 * and the facts the contract states twice, in a schema and in prose, pinned together.
 */
const copy = (): OpenAPIV31 => structuredClone(openapiDocument);
const parameter = (name: string) => spec.components.parameters[name];

describe('the request rules are read from the contract', () => {
  it('reads the parameter schemas that the operations declare', () => {
    expect(maxLengthOf(parameterSchema('query', 'name'), 'name')).toBe(512);
    const key = stringRule(parameterSchema('header', 'idempotency-key'), 'Idempotency-Key');
    expect([key.minLength, key.maxLength]).toEqual([1, 255]);
    expect(meetsRule(key, '7c4f3e1a-9b2d-4e8f-a6c5-0d1b2e3f4a5b')).toBe(true);
    expect(meetsRule(key, 'two words')).toBe(false);
    expect(meetsRule(key, '!'.repeat(256))).toBe(false);
    const id = stringRule(headerSchema('X-Request-Id'), 'X-Request-Id');
    expect([id.minLength, id.maxLength]).toEqual([8, 128]);
  });

  it('reads the security schemes and the credential parameters', () => {
    expect(keySchemes()).toEqual({ authorizationScheme: 'bearer', apiKeyHeader: 'x-api-key' });
    expect([...credentialParameters()].sort()).toEqual([
      'access_token',
      'api_key',
      'apikey',
      'key',
      'token',
      'x_api_key',
    ]);
  });

  it('a rule missing from the contract stops the start with an error that names it', () => {
    const withoutMaxLength = copy() as any;
    withoutMaxLength.components.schemas.AdvertiserName = {
      ...withoutMaxLength.components.schemas.AdvertiserName,
      maxLength: undefined,
    };
    expect(() => maxLengthOf(parameterSchema('query', 'name', withoutMaxLength), 'the query parameter "name"')).toThrow(
      /"name" needs a positive integer maxLength/,
    );
    expect(() => parameterSchema('query', 'nickname')).toThrow(/"nickname" is declared by no operation/);
    expect(() => stringRule({ type: 'string', maxLength: 3 }, 'X')).toThrow(/X needs a string schema with a pattern/);
    expect(() => headerSchema('X-Nothing')).toThrow(/components\/headers\/X-Nothing is missing/);

    const noList = copy();
    delete noList['x-credential-parameters'];
    expect(() => credentialParameters(noList)).toThrow(/needs x-credential-parameters/);

    const queryKey = copy() as any;
    queryKey.components.securitySchemes.apiKeyQuery = { type: 'apiKey', in: 'query', name: 'key' };
    expect(() => keySchemes(queryKey)).toThrow(/needs one apiKey scheme in a header/);
    const oauth = copy() as any;
    oauth.components.securitySchemes.oauth = { type: 'oauth2', flows: {} };
    expect(() => keySchemes(oauth)).toThrow(/oauth has no reader/);
    const both = copy() as any;
    both.security = [{ bearerAuth: [], apiKeyHeader: [] }];
    expect(() => keySchemes(both)).toThrow(/together/);
  });

  it('two operations that declare one parameter differently cannot share its rule', () => {
    const split = copy() as any;
    split.paths['/api/v1/advertiser/history'].get.parameters = [
      { name: 'name', in: 'query', required: true, schema: { type: 'string', maxLength: 100 } },
    ];
    expect(() => parameterSchema('query', 'name', split)).toThrow(/2 different schemas/);
  });
});

describe('what the contract says twice agrees', () => {
  it('the Authentication prose lists exactly x-credential-parameters', () => {
    const prose = /a non-blank ([^)]*) parameter, or anything/.exec(spec.info.description.replace(/\s+/g, ' '));
    expect(prose, 'the sentence that lists the credential parameters').not.toBeNull();
    const listed = [...prose![1].matchAll(/`([^`]+)`/g)].map(([, name]) => name);
    expect(listed.sort()).toEqual([...spec['x-credential-parameters']].sort());
  });

  it('the Authentication prose names the security schemes', () => {
    const { apiKeyHeader } = keySchemes();
    expect(spec.info.description).toContain(`\`Authorization: Bearer <API_KEY>\` or \`${apiKeyHeader}: <API_KEY>\``);
  });

  it("the parameter descriptions state the schemas' limits", () => {
    const name = parameterSchema('query', 'name');
    expect(parameter('name').description).toContain(`Longer than ${name.maxLength} characters (Unicode code points)`);
    expect(parameter('domain').description).toContain(
      `over ${parameterSchema('query', 'domain').maxLength} characters`,
    );
    const key = parameterSchema('header', 'Idempotency-Key');
    expect(parameter('Idempotency-Key').description.replace(/\s+/g, ' ')).toContain(
      `${key.minLength} to ${key.maxLength} visible ASCII characters`,
    );
    const id = headerSchema('X-Request-Id');
    expect(spec.components.headers['X-Request-Id'].description.replace(/\s+/g, ' ')).toContain(
      `of ${id.minLength} to ${id.maxLength} characters`,
    );
  });

  it('the name pattern is "not only white space" exactly as the rule reads it (String.prototype.trim)', () => {
    const { pattern } = stringRule(parameterSchema('query', 'name'), 'name');
    const disagree: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const character = String.fromCodePoint(codePoint);
      if (pattern.test(character) !== (character.trim() !== '')) disagree.push(codePoint.toString(16));
    }
    expect(disagree).toEqual([]);
  });
});

describe('every domain the schema allows is accepted (the pattern is a sound part of the rule)', () => {
  const { pattern, minLength, maxLength } = stringRule(parameterSchema('query', 'domain'), 'domain');
  // The pattern's shape: up to three labels, then one of a fixed list of public suffixes.
  const shape = /^\^\(\?:(.+)\\\.\)\{1,(\d)\}\(\?:([a-z\\.|]+)\)\$$/.exec(pattern.source);
  const [, label, maxLabels, suffixList] = shape ?? [];
  const suffixes = (suffixList ?? '').split('|').map((suffix) => suffix.replace(/\\\./g, '.'));

  it('has the shape this proof covers', () => {
    expect(shape, pattern.source).not.toBeNull();
    // Letters, digits and single inner hyphens: no leading, trailing or double hyphen (so never
    // `xn--`, whose Punycode the rule checks), and at most 21 + 1 + 20 + 1 + 20 = 63 characters,
    // as DNS allows. Three labels and the longest suffix stay far below 253 characters.
    expect(label).toBe('[A-Za-z0-9]{1,21}(?:-[A-Za-z0-9]{1,20}){0,2}');
    expect(Number(maxLabels) * 64 + Math.max(...suffixes.map((suffix) => suffix.length))).toBeLessThanOrEqual(
      maxLength,
    );
    expect(minLength).toBe(4); // a.de
  });

  it('no suffix of the list has an ICANN rule below it in the Public Suffix List the rule uses (tldts)', () => {
    // tldts keeps the list as a trie of labels, right to left; a node flagged 1 ends an ICANN rule.
    const require = createRequire(import.meta.url);
    const trie = require('tldts/dist/cjs/src/data/trie.js');
    const offsets: number[] = [];
    for (let edge = 0, offset = 0; edge < trie.edgeLength.length; offset += trie.edgeLength[edge], edge++)
      offsets.push(offset);
    const labelOf = (edge: number) => trie.labelText.slice(offsets[edge], offsets[edge] + trie.edgeLength[edge]);
    const children = (node: number) =>
      Array.from({ length: trie.edgeStart[node + 1] - trie.edgeStart[node] }, (_, i) => trie.edgeStart[node] + i);
    const nodeOf = (root: number, suffix: string) =>
      suffix
        .split('.')
        .reverse()
        .reduce<number | undefined>((node, part) => {
          const edge = node === undefined ? undefined : children(node).find((candidate) => labelOf(candidate) === part);
          return edge === undefined ? undefined : trie.edgeChild[edge];
        }, root);
    const icannBelow = (node: number, path: string): string[] =>
      children(node).flatMap((edge) => {
        const rule = `${labelOf(edge)}.${path}`;
        const child = trie.edgeChild[edge];
        return [...((trie.nodeFlags[child] & 1) !== 0 ? [rule] : []), ...icannBelow(child, rule)];
      });
    for (const suffix of suffixes) {
      const node = nodeOf(trie.rulesRoot, suffix);
      expect(node, `${suffix} is an ICANN public suffix`).not.toBeUndefined();
      expect(trie.nodeFlags[node!] & 1, `${suffix} is an ICANN rule`).toBe(1);
      expect(icannBelow(node!, suffix), `ICANN rules below ${suffix}`).toEqual([]);
      expect(nodeOf(trie.exceptionsRoot, suffix), `exception rules below ${suffix}`).toBeUndefined();
    }
  });

  it('the rule accepts values of every form the pattern allows, the longest included', () => {
    let seed = 20261122;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const run = (max: number, length = 1 + random(max)) =>
      Array.from({ length }, () => ALNUM[random(ALNUM.length)]).join('');
    const labelOf = (longest: boolean) =>
      [
        run(21, longest ? 21 : undefined),
        ...Array.from({ length: longest ? 2 : random(3) }, () => run(20, longest ? 20 : undefined)),
      ].join('-');
    const values: string[] = [];
    for (const suffix of suffixes) {
      values.push(
        `a.${suffix}`,
        `0.${suffix}`,
        `A-0.${suffix}`,
        `${labelOf(true)}.${labelOf(true)}.${labelOf(true)}.${suffix}`,
      );
      for (let i = 0; i < 300; i++) {
        values.push(
          `${Array.from({ length: 1 + random(Number(maxLabels)) }, () => labelOf(false)).join('.')}.${suffix}`,
        );
      }
    }
    const refused = values.filter(
      (value) => !meetsRule({ pattern, minLength, maxLength }, value) || rootDomain(value) === null,
    );
    expect(refused).toEqual([]);
  });

  it('the parameter examples are values the pattern allows', () => {
    for (const { value } of Object.values<any>(parameter('domain').examples)) {
      expect(meetsRule({ pattern, minLength, maxLength }, value), value).toBe(true);
      expect(rootDomain(value), value).not.toBeNull();
    }
  });
});

describe("the body of createWatch states the lookups' parameter rules", () => {
  it("a domain watch's target has the domain parameter's schema; an advertiser watch's, the name's and no NUL", () => {
    const schemas = (openapiDocument.components as any).schemas;
    const domain = (openapiDocument.components as any).parameters.domain.schema;
    const target = schemas.DomainWatchRequest.properties.target;
    expect([target.pattern, target.minLength, target.maxLength]).toEqual([
      domain.pattern,
      domain.minLength,
      domain.maxLength,
    ]);
    const name = schemas.AdvertiserWatchRequest.properties.target;
    expect(name.maxLength).toBe(schemas.AdvertiserName.maxLength);
    const pattern = new RegExp(name.pattern, 'u');
    expect(['Acme Outdoor', ' x ', '\u3000a'].every((value) => pattern.test(value))).toBe(true);
    expect(['', ' ', '\u3000\ufeff', 'a\u0000b'].some((value) => pattern.test(value))).toBe(false);
  });
});
