import type { App } from '../../src/app.ts';
import { createAccount, createApiKey } from '../../src/data/accounts.ts';
import { type TestAppOptions, testApp } from './app.ts';
import { type ValidatedResponse, validateResponse } from './contract.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

export interface RequestOptions {
  /** Sent as `Authorization: Bearer`. */
  key?: string;
  method?: string;
  headers?: Record<string, string>;
  /** A request body, sent as given (a JSON body needs its Content-Type in `headers`). */
  body?: string;
}

export interface TestApi {
  db: TestDatabase;
  app: App;
  /** Calls the app in-process; every response is validated against openapi.yaml. */
  request(path: string, options?: RequestOptions): Promise<ValidatedResponse>;
  /** A new account whose first key brought the grant, spent down (or topped up) to `balance`. */
  newKey(balance?: number): Promise<{ key: string; accountId: number; keyId: number }>;
  balanceOf(accountId: number): Promise<number>;
  ledgerSum(accountId: number): Promise<number>;
  close(): Promise<void>;
}

export async function createTestApi(options: Omit<TestAppOptions, 'sql'> = {}): Promise<TestApi> {
  const db = await createTestDatabase();
  const app = testApp({ sql: db.sql, ...options });
  const api: TestApi = {
    db,
    app,
    async request(path, { key, method = 'GET', headers = {}, body } = {}) {
      const all: Record<string, string> = { ...headers };
      if (key !== undefined) all.Authorization = `Bearer ${key}`;
      const response = await app.request(path, { method, headers: all, ...(body !== undefined && { body }) });
      return validateResponse(method, path, response);
    },
    async newKey(balance = 200) {
      const account = await createAccount(db.sql);
      const created = await createApiKey(db.sql, account.id);
      const adjustment = balance - created.balance;
      if (adjustment !== 0) {
        // Test set-up only: a ledger row moves the balance so ledger and balance still agree.
        await db.sql`
          WITH moved AS (UPDATE accounts SET balance = balance + ${adjustment} WHERE id = ${account.id}
            RETURNING id, balance)
          INSERT INTO ledger (account_id, kind, amount, balance_after, endpoint, payment_reference)
          SELECT id, ${adjustment > 0 ? 'purchase' : 'charge'}, ${adjustment}, balance, 'test-setup',
                 ${adjustment > 0 ? `test-setup-${account.id}` : null}
          FROM moved`;
      }
      return { key: created.key, accountId: account.id, keyId: created.id };
    },
    async balanceOf(accountId) {
      const [row] = await db.sql<{ balance: number }[]>`SELECT balance FROM accounts WHERE id = ${accountId}`;
      return row.balance;
    },
    async ledgerSum(accountId) {
      const [row] = await db.sql<
        { sum: number }[]
      >`SELECT coalesce(sum(amount), 0)::bigint AS sum FROM ledger WHERE account_id = ${accountId}`;
      return row.sum;
    },
    close: () => db.drop(),
  };
  return api;
}
