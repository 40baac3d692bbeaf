// @module-tag database-free
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/config.ts';

/** The service's source files, .ts and .tsx, relative to the project. */
function sourceFiles(dir = path.join(projectRoot, 'src')): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [path.relative(projectRoot, full)] : [];
  });
}

describe('the ledger written through one module', () => {
  it('every ledger row the service writes from TypeScript is written by src/data/ledger-entries.ts', () => {
    const writers = sourceFiles().filter((file) =>
      /INSERT\s+INTO\s+ledger\b/i.test(fs.readFileSync(path.join(projectRoot, file), 'utf8')),
    );
    expect(writers).toEqual(['src/data/ledger-entries.ts']);
  });

  it('of the SQL functions, only debit_credits writes ledger rows (the charges)', () => {
    const dir = path.join(projectRoot, 'db', 'functions');
    const writers = fs
      .readdirSync(dir)
      .filter((file) => /INSERT\s+INTO\s+ledger\b/i.test(fs.readFileSync(path.join(dir, file), 'utf8')));
    expect(writers).toEqual(['debit_credits.sql']);
  });
});
