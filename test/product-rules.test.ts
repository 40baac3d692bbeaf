import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/config.ts';

const RULES = path.join(projectRoot, 'docs', 'product-rules.md');

interface Proof {
  rule: string;
  file: string;
  name: string;
}

/**
 * Every `[file](../file) › "name"` of the rules' Proof lines; a bare `› "name"` names another test
 * of the file before it. A name ending in … stands for the start of the test's name.
 */
function proofs(markdown: string): Proof[] {
  const found: Proof[] = [];
  let rule = '(before the first rule)';
  for (const line of markdown.split('\n')) {
    rule = /\*\*(R[\d.]+)\*\*/.exec(line)?.[1] ?? rule;
    const at = line.indexOf('Proof:');
    if (at < 0) continue;
    let file = '';
    for (const part of line.slice(at).matchAll(/\[([^\]]+)\]\(\.\.\/[^)]+\)|› "((?:[^"\\]|\\.)*)"/g)) {
      if (part[1] !== undefined) file = part[1];
      else found.push({ rule, file, name: part[2].replace(/\\"/g, '"') });
    }
  }
  return found;
}

/** A test file's text with string concatenations joined and quote escapes undone. */
function testText(file: string): string {
  return fs
    .readFileSync(path.join(projectRoot, file), 'utf8')
    .replace(/(['"`])(\s+\+\s*|\s*\+\s+)(['"`])/g, '')
    .replace(/\\(['"`])/g, '$1');
}

/** Whether a test file names the test: literally, or by a template literal such as `${path}: …`. */
function names(text: string, name: string): boolean {
  const literal = name.endsWith('…') ? name.slice(0, -1) : name;
  if (text.includes(literal)) return true;
  return [...text.matchAll(/`([^`]*\$\{[^`]*)`/g)].some(([, template]) => {
    const pattern = template
      .split(/\$\{[^}]*\}/)
      .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+');
    return new RegExp(`^${pattern}${name.endsWith('…') ? '' : '$'}`).test(literal);
  });
}

describe('docs/product-rules.md', () => {
  const all = proofs(fs.readFileSync(RULES, 'utf8'));

  it('every proof names a test file that exists and a test name that file contains', () => {
    expect(all.length).toBeGreaterThan(200);
    const missing = all.filter(({ file, name }) => {
      if (!file.startsWith('test/') || !fs.existsSync(path.join(projectRoot, file))) return true;
      return !names(testText(file), name);
    });
    expect(missing.map(({ rule, file, name }) => `${rule}: ${file} › "${name}"`)).toEqual([]);
  });

  it('the check finds a name no test has (the check itself works)', () => {
    const [proof] = proofs('- **R0.1** x\n  Proof: [test/main.test.ts](../test/main.test.ts) › "no such test"');
    expect(proof).toEqual({ rule: 'R0.1', file: 'test/main.test.ts', name: 'no such test' });
    expect(names(testText(proof.file), proof.name)).toBe(false);
    const templated = ['it(`$', '{path}: billed like JSON`'].join('');
    expect(names(templated, '/api/v1/brandbid: billed like JSON')).toBe(true);
    expect(names(templated, '/api/v1/brandbid: billed like XML')).toBe(false);
  });
});
