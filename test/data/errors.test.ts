import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/data/client.ts';
import {
  errorCode,
  isOutcomeUnknown,
  isUnavailable,
  isUndefinedTable,
  isUniqueViolation,
  MalformedResult,
} from '../../src/data/errors.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

/**
 * src/data/errors.ts, the one module that knows the database's error codes, on the errors real
 * PostgreSQL and postgres.js throw: what each says about availability and about whether the
 * statement may have committed.
 */

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected the statement to fail');
}

const verdicts = (error: unknown) => ({
  code: errorCode(error),
  unavailable: isUnavailable(error),
  outcomeUnknown: isOutcomeUnknown(error),
  uniqueViolation: isUniqueViolation(error),
  undefinedTable: isUndefinedTable(error),
});

describe('errorCode', () => {
  it('is the string code of whatever carries one, and undefined otherwise', () => {
    expect(errorCode(Object.assign(new Error('x'), { code: '23505' }))).toBe('23505');
    expect(errorCode({ code: 'ECONNRESET' })).toBe('ECONNRESET');
    expect(errorCode(Object.assign(new Error('x'), { code: 42 }))).toBeUndefined();
    expect(errorCode(new Error('x'))).toBeUndefined();
    for (const value of [null, undefined, 'ECONNRESET', 7]) expect(errorCode(value)).toBeUndefined();
    expect(isUnavailable(null)).toBe(false);
    expect(isOutcomeUnknown(undefined)).toBe(false);
  });

  it('knows the codes apart: unavailable, outcome unknown, both, or neither', () => {
    const of = (code: string) => [isUnavailable({ code }), isOutcomeUnknown({ code })];
    expect(of('57P03')).toEqual([true, false]); // cannot_connect_now: nothing was sent
    expect(of('CONNECT_TIMEOUT')).toEqual([true, false]);
    expect(of('CONNECTION_ENDED')).toEqual([true, false]);
    expect(of('57014')).toEqual([true, false]); // query_canceled: the statement was rolled back
    expect(of('08007')).toEqual([false, true]); // transaction_resolution_unknown
    expect(of('57P01')).toEqual([true, true]);
    expect(of('CONNECTION_CLOSED')).toEqual([true, true]);
    expect(of('ECONNRESET')).toEqual([true, true]);
    expect(of('23505')).toEqual([false, false]);
    expect(of('42P01')).toEqual([false, false]);
  });
});

describe('a fault inside postgres.js', () => {
  it('a TypeError thrown by its connection code is the database path failing: unavailable, outcome unknown', () => {
    const fault = new TypeError("Cannot read properties of null (reading 'write')");
    fault.stack = `${fault.message}\n    at Immediate.nextWrite (/app/node_modules/postgres/src/connection.js:255:22)`;
    expect(isUnavailable(fault)).toBe(true);
    expect(isOutcomeUnknown(fault)).toBe(true);
  });

  it('an answer whose entries are not the rows of its statement: unavailable, outcome unknown', () => {
    const malformed = new MalformedResult('debit_credits answered entries that are not its rows');
    expect(isUnavailable(malformed)).toBe(true);
    expect(isOutcomeUnknown(malformed)).toBe(true);
  });

  it("a TypeError of the service's own code stays a fault of the service (500)", () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
    bug.stack = `${bug.message}\n    at handler (/app/src/operations/getAccount.ts:9:5)`;
    expect(isUnavailable(bug)).toBe(false);
    expect(isOutcomeUnknown(bug)).toBe(false);
  });
});

describe('the errors PostgreSQL and postgres.js throw', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('a second row with the same unique key is a unique violation, nothing more', async () => {
    const error = await failure(() =>
      db.sql.begin(async (tx) => {
        await tx`CREATE TEMPORARY TABLE once (id integer PRIMARY KEY)`;
        await tx`INSERT INTO once VALUES (1), (1)`;
      }),
    );
    expect(verdicts(error)).toEqual({
      code: '23505',
      unavailable: false,
      outcomeUnknown: false,
      uniqueViolation: true,
      undefinedTable: false,
    });
  });

  it('a table that does not exist is an undefined table', async () => {
    const error = await failure(() => db.sql`SELECT * FROM no_such_table`);
    expect(verdicts(error)).toEqual({
      code: '42P01',
      unavailable: false,
      outcomeUnknown: false,
      uniqueViolation: false,
      undefinedTable: true,
    });
  });

  it('a statement cancelled by its timeout: the database is unavailable for now, and nothing committed', async () => {
    const error = await failure(() =>
      db.sql.begin(async (tx) => {
        await tx`SET LOCAL statement_timeout = 20`;
        await tx`SELECT pg_sleep(5)`;
      }),
    );
    expect(verdicts(error)).toMatchObject({ code: '57014', unavailable: true, outcomeUnknown: false });
  });

  it('a connection the server ends while a statement runs: unavailable, and the outcome is unknown', async () => {
    const victim = postgres(db.url, { max: 1, onnotice: () => {} });
    try {
      const [{ pid }] = await victim<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
      const running = failure(() => victim`SELECT pg_sleep(10)`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await db.sql`SELECT pg_terminate_backend(${pid})`;
      const error = await running;
      expect(verdicts(error)).toMatchObject({ unavailable: true, outcomeUnknown: true });
    } finally {
      await victim.end({ timeout: 1 });
    }
  });

  it('a server that refuses the connection: unavailable, and nothing was sent', async () => {
    const nowhere = connect('postgres://postgres@127.0.0.1:1/nowhere', 1);
    try {
      const error = await failure(() => nowhere`SELECT 1`);
      expect(verdicts(error)).toMatchObject({ code: 'ECONNREFUSED', unavailable: true, outcomeUnknown: false });
    } finally {
      await nowhere.end({ timeout: 1 });
    }
  });
});
