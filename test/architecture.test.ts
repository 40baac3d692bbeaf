import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../src/config.ts';

/**
 * The layout's rules that a reader relies on (docs/architecture.md): modules import each other
 * without cycles, type-only imports included, and only the application's composition root
 * (app.ts) imports the operations.
 */
const SRC = path.join(projectRoot, 'src');
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Every TypeScript file of src/, test/ and scripts/, the Python fuzzing hooks' folder left out. */
function typescriptFiles(): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory())
        return file === path.join(projectRoot, 'test', 'contract', 'schemathesis') ? [] : walk(file);
      return entry.name.endsWith('.ts') ? [file] : [];
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

  it('finds a cycle when there is one (the check itself works)', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('only the composition root imports the operations', () => {
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
});
