import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Connection, copyField, openCopy } from '../../src/ingest/copy.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

let db: TestDatabase;
let connection: Connection;
beforeAll(async () => {
  db = await createTestDatabase();
  connection = await db.sql.reserve();
  await connection`CREATE TEMP TABLE copied (n integer, t text)`;
});
afterAll(async () => {
  connection.release();
  await db.drop();
});

/** Sends `chunks` through one COPY, as a batch does. */
async function copyInto(connection: Connection, statement: string, chunks: string[]): Promise<void> {
  const copy = await openCopy(connection, statement);
  for (const chunk of chunks) await copy.write(chunk);
  await copy.end();
}

describe('openCopy', () => {
  it('copies text-format lines, escapes included, across chunks', async () => {
    const values = ['plain', 'tab\there', 'line\nbreak', 'back\\slash \\N', 'cr\rlf', ''];
    const lines = values.map((value, i) => `${i}\t${copyField(value)}\n`);
    await copyInto(connection, 'COPY copied (n, t) FROM STDIN', [
      lines.slice(0, 2).join(''),
      lines.slice(2).join(''),
      `9\t${copyField(null)}\n`,
    ]);
    const rows = await connection<{ n: number; t: string | null }[]>`SELECT n, t FROM copied ORDER BY n`;
    expect(rows).toEqual([...values.map((t, n) => ({ n, t })), { n: 9, t: null }]);
  });

  it('an error the server reports during the copy rejects, instead of leaving the copy hanging', async () => {
    await expect(
      copyInto(connection, 'COPY copied (n, t) FROM STDIN', ['1\tok\n', 'not a number\tx\n']),
    ).rejects.toThrow(/invalid input syntax for type integer/);
    // The connection is usable again.
    expect(await connection`SELECT 1 AS one`).toEqual([{ one: 1 }]);
  });
});
