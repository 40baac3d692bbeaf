import fs from 'node:fs';
import path from 'node:path';

/**
 * Which test files each configuration of CI runs (README, "Which command runs what"). A file says
 * what it touches with vitest's own `// @module-tag` comment; test/architecture.test.ts keeps each
 * tag true of the file's imports, so a new file cannot be left out by forgetting a list.
 *
 * - every file: `npm test` (Node 20, the embedded PostgreSQL);
 * - `database`, every file not tagged `database-free`: PostgreSQL 15 at DATABASE_URL;
 * - `runtime`, the files tagged `runtime`: Node 24.
 */
export const TEST_TAGS = [
  {
    name: 'database-free',
    description: 'Talks to no database server: nothing it imports reaches postgres or the test database.',
  },
  {
    name: 'runtime',
    description:
      'Exercises what Node itself implements: the HTTP server and its framing, sockets, TLS, ' +
      'child processes and signals, streams and zlib, the embedded start, a browser.',
  },
] as const;

export type TestSet = 'database' | 'runtime';

const TEST_ROOT = path.join(import.meta.dirname, '..');

/** The tags of a test file, read as vitest reads them (`// @module-tag name` or ` * @module-tag name`). */
export function fileTags(text: string): string[] {
  return [...text.matchAll(/(?:\/\/|\*)\s*@module-tag\s+([\w\-/]+)\b/g)].map((match) => match[1]);
}

/** Every test file of the suite, relative to the project's root (the fail-over test has its own run). */
export function allTestFiles(): string[] {
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'failover' ? [] : walk(file);
      return entry.name.endsWith('.test.ts') ? [file] : [];
    });
  return walk(TEST_ROOT)
    .map((file) => path.relative(path.dirname(TEST_ROOT), file))
    .sort();
}

/** The files one configuration runs. */
export function testFiles(set: TestSet): string[] {
  const wanted = (tags: string[]) => (set === 'database' ? !tags.includes('database-free') : tags.includes('runtime'));
  return allTestFiles().filter((file) =>
    wanted(fileTags(fs.readFileSync(path.join(path.dirname(TEST_ROOT), file), 'utf8'))),
  );
}
