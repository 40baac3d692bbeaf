import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpSchema, normalizeDump, SCHEMA_FILE } from '../../scripts/schema.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

describe('db/schema.sql', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('is the schema of a freshly migrated database (npm run schema writes it again)', () => {
    expect(dumpSchema(db.url)).toBe(fs.readFileSync(SCHEMA_FILE, 'utf8'));
  });

  it("leaves out only what differs between two dumps of one schema: pg_dump's version and restrict key", () => {
    const dump = ['--', '-- Dumped from database version 15.18', '-- Dumped by pg_dump version 15.20', '--', ''];
    expect(
      normalizeDump(['\\restrict abc', ...dump, '', '', 'CREATE SCHEMA sandbox;', '\\unrestrict abc', ''].join('\n')),
    ).toBe('--\n--\n\nCREATE SCHEMA sandbox;\n');
  });
});
