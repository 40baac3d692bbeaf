// @module-tag database-free
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/config.ts';
import { allTestFiles, fileTags, testFiles } from './support/test-sets.ts';

/**
 * The layout's rules that a reader relies on (docs/architecture.md): modules (.ts and .tsx) import
 * each other without cycles, type-only imports included, and so do the folders of src/; only
 * the application (app.ts) imports the operations; code and Markdown lines keep their widths.
 */
const SRC = path.join(projectRoot, 'src');
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Every TypeScript file (.ts, .tsx) of src/, test/ and scripts/, the Python fuzzing hooks' folder left out. */
function typescriptFiles(): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory())
        return file === path.join(projectRoot, 'test', 'contract', 'schemathesis') ? [] : walk(file);
      return /\.tsx?$/.test(entry.name) ? [file] : [];
    });
  return ['src', 'test', 'scripts'].flatMap((dir) => walk(path.join(projectRoot, dir)));
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    const targets = [...text.matchAll(IMPORT)]
      .map((match) => path.resolve(path.dirname(file), match[1]))
      .filter((target) => target.startsWith(SRC));
    graph.set(
      path.relative(SRC, file),
      targets.map((target) => path.relative(SRC, target)),
    );
  }
  return graph;
}

/**
 * The graph of src/'s folders: an import from one folder into another is an edge between them; a
 * file at the top of src/ (config.ts, app.ts…) is a node of its own.
 */
function folderGraph(files: Map<string, string[]>): Map<string, string[]> {
  const folder = (file: string) => (file.includes('/') ? `${file.split('/')[0]}/` : file);
  const graph = new Map<string, string[]>();
  for (const [file, targets] of files) {
    const from = folder(file);
    const edges = new Set(graph.get(from));
    for (const target of targets) if (folder(target) !== from) edges.add(folder(target));
    graph.set(from, [...edges].sort());
  }
  return graph;
}

/**
 * How wide a line of Markdown prose may be, as the project's documents are wrapped. Not counted:
 * tables, fenced code, the proof lines of product-rules.md (test names are quoted whole), a line of
 * one word (a long URL), rule anchors and link targets (a link counts as its text).
 */
const MARKDOWN_WIDTH = 100;

/**
 * README.md and docs/*.md; docs/benchmarks.md is left out: scripts/bench/docs.ts renders it from a
 * run's numbers, a paragraph a line.
 */
function markdownFiles(): string[] {
  const docs = fs
    .readdirSync(path.join(projectRoot, 'docs'))
    .filter((name) => name.endsWith('.md') && name !== 'benchmarks.md')
    .map((name) => path.join(projectRoot, 'docs', name));
  return [path.join(projectRoot, 'README.md'), ...docs];
}

/** The numbers (from 1) of the lines of a Markdown text wider than `MARKDOWN_WIDTH`, as read. */
function overWide(markdown: string): number[] {
  const wide: number[] = [];
  let code = false;
  markdown.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trimStart();
    if (trimmed.startsWith('```')) code = !code;
    if (code || trimmed.startsWith('```') || trimmed.startsWith('|') || trimmed.split(/\s+/).length <= 1) return;
    if (line.includes('Proof') || line.includes(' › "')) return;
    const read = line.replace(/<a id="[^"]*"><\/a>/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    if ([...read].length > MARKDOWN_WIDTH) wide.push(index + 1);
  });
  return wide;
}

/** An issue number: a tracker outside the repository, which a reader cannot follow. */
const ISSUE_CITATION = /\bissues? #?\d+/i;

function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('the layout of src/', () => {
  it('has no import cycles, type-only imports included', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(50);
    expect(cycles(graph).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('has no import cycles between its folders (a file at its top counts as a folder)', () => {
    const graph = folderGraph(importGraph());
    expect(graph.size).toBeGreaterThan(10);
    expect(cycles(graph).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('billing/ returns what a call came to and answers no HTTP: it imports neither http/ nor hono', () => {
    const billing = [...importGraph()].filter(([file]) => file.startsWith('billing/'));
    expect(billing.length).toBeGreaterThan(5);
    const http = billing.filter(([, targets]) => targets.some((target) => target.startsWith('http/')));
    const hono = billing.filter(([file]) =>
      /from\s+['"]hono|@hono\//.test(fs.readFileSync(path.join(SRC, file), 'utf8')),
    );
    expect([...http, ...hono].map(([file]) => file)).toEqual([]);
  });

  it('sees .tsx files and the folder of each file (the checks themselves work)', () => {
    const graph = importGraph();
    expect([...graph.keys()].some((file) => file.endsWith('.tsx'))).toBe(true);
    expect(
      folderGraph(
        new Map([
          ['data/a.ts', ['web/b.tsx']],
          ['web/b.tsx', ['data/c.ts', 'config.ts']],
        ]),
      ),
    ).toEqual(
      new Map([
        ['data/', ['web/']],
        ['web/', ['config.ts', 'data/']],
      ]),
    );
  });

  it('finds a cycle when there is one (the check itself works)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('only the application (app.ts) imports the operations', () => {
    const importers = [...importGraph()]
      .filter(
        ([file, targets]) =>
          !file.startsWith('operations/') && targets.some((target) => target.startsWith('operations/')),
      )
      .map(([file]) => file);
    expect(importers.sort()).toEqual(['app.ts']);
  });

  it('no line of src/, test/ or scripts/ is longer than 120 characters', () => {
    const files = typescriptFiles();
    expect(files.length).toBeGreaterThan(100);
    const long = files.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split(/\r?\n/)
        .flatMap((line, index) =>
          [...line].length > 120 ? [`${path.relative(projectRoot, file)}:${index + 1} (${[...line].length})`] : [],
        ),
    );
    expect(long).toEqual([]);
  });

  it(`no line of README.md or docs/*.md is wider than ${MARKDOWN_WIDTH} characters, tables and code aside`, () => {
    const files = markdownFiles();
    expect(files.length).toBeGreaterThan(5);
    const wide = files.flatMap((file) =>
      overWide(fs.readFileSync(file, 'utf8')).map((line) => `${path.relative(projectRoot, file)}:${line}`),
    );
    expect(wide).toEqual([]);
  });

  it('measures Markdown as it reads (the check itself works)', () => {
    const long = 'word '.repeat(21).trim();
    const link = `[${'a'.repeat(90)}](${'../very/long/path/'.repeat(5)})`;
    const text = [
      long,
      `| ${long} |`,
      '```',
      long,
      '```',
      `  Proof: [test/x.test.ts](../test/x.test.ts) › "${long}"`,
      `- <a id="r1-1"></a>**R1.1** ${'b'.repeat(84)}`,
      link,
      'https://example.com/'.repeat(6),
    ].join('\n');
    expect(overWide(text)).toEqual([1]);
  });

  it('no file of src/, test/, scripts/, docs/ or README.md cites an issue number', () => {
    const files = [...typescriptFiles(), ...markdownFiles(), path.join(projectRoot, 'docs', 'benchmarks.md')];
    const citing = files.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          ISSUE_CITATION.test(line) ? [`${path.relative(projectRoot, file)}:${index + 1}`] : [],
        ),
    );
    expect(citing).toEqual([]);
    expect(ISSUE_CITATION.test(['(see', 'issue', '5)'].join(' '))).toBe(true);
    expect(ISSUE_CITATION.test(['Issues', '13 and 14'].join(' '))).toBe(true);
  });
});

/**
 * The tags that choose what each configuration of CI runs (test/support/test-sets.ts): a file is
 * `database-free` exactly when nothing it imports, followed through the project's own modules,
 * reaches the database; a file that imports what Node itself implements (a server or a socket,
 * TLS, child processes, streams, zlib, workers, the embedded start, a browser) is `runtime`.
 */
const VALUE_IMPORT =
  /^\s*(?:import|export)\s+(?!type\s)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
const RUNTIME_MODULES = new Set([
  'node:http',
  'node:https',
  'node:net',
  'node:tls',
  'node:zlib',
  'node:stream',
  'node:stream/promises',
  'node:worker_threads',
  'node:child_process',
  'playwright-core',
  'test/support/http.ts',
  'test/support/service.ts',
  'test/support/https-receiver.ts',
  'test/cli/run-cli.ts',
  'src/data/embedded.ts',
  'src/http/server.ts',
]);

/** What a file imports for its values: packages by name, the project's own modules relative to its root. */
function valueImports(file: string): string[] {
  const text = fs.readFileSync(path.join(projectRoot, file), 'utf8');
  return [...text.matchAll(VALUE_IMPORT)].map((match) => {
    const target = match[1] ?? match[2];
    return target.startsWith('.')
      ? path.relative(projectRoot, path.resolve(path.dirname(path.join(projectRoot, file)), target))
      : target;
  });
}

/** Whether a module, or anything it imports through the project's own modules, talks to a database server. */
function reachesTheDatabase(file: string, seen = new Set<string>()): boolean {
  if (seen.has(file) || !fs.existsSync(path.join(projectRoot, file))) return false;
  seen.add(file);
  if (/\binject\(\s*['"]adminUrl['"]/.test(fs.readFileSync(path.join(projectRoot, file), 'utf8'))) return true;
  return valueImports(file).some((target) =>
    target === 'postgres' ? true : /^(src|test|scripts)\//.test(target) && reachesTheDatabase(target, seen),
  );
}

describe('the tags that choose what each configuration runs', () => {
  const files = allTestFiles().map((file) => ({
    file,
    tags: fileTags(fs.readFileSync(path.join(projectRoot, file), 'utf8')),
  }));

  it('a test file is tagged database-free exactly when nothing it imports reaches the database', () => {
    const wrong = files.flatMap(({ file, tags }) =>
      tags.includes('database-free') === reachesTheDatabase(file) ? [file] : [],
    );
    expect(wrong).toEqual([]);
  });

  it('a test file importing a server, socket, process, stream, embedded start or browser is tagged runtime', () => {
    const untagged = files.flatMap(({ file, tags }) =>
      !tags.includes('runtime') && valueImports(file).some((target) => RUNTIME_MODULES.has(target)) ? [file] : [],
    );
    expect(untagged).toEqual([]);
  });

  it('each configuration runs a part of the suite, and the database part leaves out only what is database-free', () => {
    const database = testFiles('database');
    const runtime = testFiles('runtime');
    expect(database.length).toBeGreaterThan(0);
    expect(runtime.length).toBeGreaterThan(0);
    expect(runtime.length).toBeLessThan(files.length);
    expect(
      files.filter(({ file }) => !database.includes(file)).every(({ tags }) => tags.includes('database-free')),
    ).toBe(true);
    expect(reachesTheDatabase('test/support/database.ts')).toBe(true);
    expect(reachesTheDatabase('test/support/test-sets.ts')).toBe(false);
  });
});
