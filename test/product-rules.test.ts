// @module-tag database-free
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

/** The anchor of every rule, as `R12.8` for `<a id="r12-8">`. */
function anchoredRules(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/<a id="r(\d+(?:-\d+)+)">/g)].map(([, id]) => `R${id.replaceAll('-', '.')}`));
}

/**
 * Every rule a text cites: `R3.7`, and each rule of a range `R3.7–R3.10` (en dash or hyphen) of
 * one section.
 */
function citedRules(text: string): string[] {
  const found: string[] = [];
  for (const [, first, last] of text.matchAll(/\bR(\d+(?:\.\d+)+)\b(?:\s*[–-]\s*R(\d+(?:\.\d+)+)\b)?/g)) {
    found.push(`R${first}`);
    if (last === undefined) continue;
    const from = first.split('.');
    const to = last.split('.');
    const section = from.slice(0, -1).join('.');
    if (to.slice(0, -1).join('.') !== section) found.push(`R${last}`);
    else for (let n = Number(from.at(-1)) + 1; n <= Number(to.at(-1)); n++) found.push(`R${section}.${n}`);
  }
  return found;
}

/**
 * The files that may cite rules: src/, test/ and scripts/, docs/ and README.md. This file is left
 * out: its checks' own examples cite rules that do not exist on purpose.
 */
function citingFiles(): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return walk(file);
      return /\.(tsx?|md|py|sql|yaml)$/.test(entry.name) ? [file] : [];
    });
  const self = path.join(projectRoot, 'test', 'product-rules.test.ts');
  return [...['src', 'test', 'scripts', 'docs'].flatMap((dir) => walk(path.join(projectRoot, dir))), 'README.md']
    .map((file) => path.resolve(projectRoot, file))
    .filter((file) => file !== self);
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

  it('every rule cited in src/, test/, scripts/, docs/ and README.md has its anchor here', () => {
    const anchors = anchoredRules(fs.readFileSync(RULES, 'utf8'));
    expect(anchors.size).toBeGreaterThan(200);
    const files = citingFiles();
    const cited = files.flatMap((file) =>
      citedRules(fs.readFileSync(file, 'utf8')).map((rule) => `${path.relative(projectRoot, file)}: ${rule}`),
    );
    expect(cited.length).toBeGreaterThan(300);
    expect(cited.filter((citation) => !anchors.has(citation.split(': ')[1]))).toEqual([]);
  });

  it('reads anchors, citations and ranges (the check itself works)', () => {
    expect(anchoredRules('- <a id="r2-0-1"></a>**R2.0.1** x\n- <a id="r12-8"></a>**R12.8** y')).toEqual(
      new Set(['R2.0.1', 'R12.8']),
    );
    expect(citedRules('see R12.8, R2.0.1 and (R12.30–R12.32); R3.9-R4.1 is two')).toEqual([
      'R12.8',
      'R2.0.1',
      'R12.30',
      'R12.31',
      'R12.32',
      'R3.9',
      'R4.1',
    ]);
  });
});
