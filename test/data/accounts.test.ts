import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recentLedger } from '../../src/accounts/ledger.ts';
import { AccountError, addCredits, createAccount, createApiKey, FIRST_KEY_GRANT } from '../../src/data/accounts.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

describe('accounts, keys and credits (docs/product-rules.md §4, §6)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('first key grant: the first key ever brings 200 credits, once per account, recorded in the ledger', async () => {
    const account = await createAccount(db.sql, { email: 'first@example.com' });
    const first = await createApiKey(db.sql, account.id);
    expect(FIRST_KEY_GRANT).toBe(200);
    expect(first.granted).toBe(200);
    expect(first.balance).toBe(200);
    const second = await createApiKey(db.sql, account.id);
    expect(second.granted).toBe(0);
    expect(second.balance).toBe(200);
    const ledger = await recentLedger(db.sql, account.id);
    expect(ledger.map((e) => [e.kind, e.amount, e.balanceAfter, e.keyId])).toEqual([['grant', 200, 200, first.id]]);
  });

  it('first key grant: concurrent first keys still grant once', async () => {
    const account = await createAccount(db.sql);
    const keys = await Promise.all(Array.from({ length: 5 }, () => createApiKey(db.sql, account.id)));
    expect(keys.filter((k) => k.granted > 0)).toHaveLength(1);
    const [{ balance }] = await db.sql<{ balance: number }[]>`SELECT balance FROM accounts WHERE id = ${account.id}`;
    expect(balance).toBe(200);
  });

  it('keys are stored only as hashes: the plaintext is nowhere in the database', async () => {
    const account = await createAccount(db.sql);
    const { key } = await createApiKey(db.sql, account.id);
    const rows = await db.sql`SELECT * FROM api_keys WHERE account_id = ${account.id}`;
    expect(JSON.stringify(rows)).not.toContain(key.slice(12));
  });

  it('payment reference: the same reference twice adds nothing the second time, and says so', async () => {
    const account = await createAccount(db.sql);
    expect(await addCredits(db.sql, account.id, 500, 'pay_123')).toEqual({ added: true, balance: 500 });
    expect(await addCredits(db.sql, account.id, 500, 'pay_123')).toEqual({ added: false, balance: 500 });
    const ledger = await recentLedger(db.sql, account.id);
    expect(ledger.map((e) => [e.kind, e.amount, e.paymentReference])).toEqual([['purchase', 500, 'pay_123']]);
  });

  it('payment reference: unique across accounts; another account using it is an error', async () => {
    const a = await createAccount(db.sql);
    const b = await createAccount(db.sql);
    await addCredits(db.sql, a.id, 10, 'pay_shared');
    await expect(addCredits(db.sql, b.id, 10, 'pay_shared')).rejects.toThrow(AccountError);
    expect(await recentLedger(db.sql, b.id)).toEqual([]);
  });

  it('payment reference: at most 1024 characters, as the ledger shows it', async () => {
    const account = await createAccount(db.sql);
    await expect(addCredits(db.sql, account.id, 10, 'r'.repeat(1025))).rejects.toThrow('at most 1024 characters');
    expect((await addCredits(db.sql, account.id, 10, 'r'.repeat(1024))).added).toBe(true);
  });

  it('credits: amounts must be positive integers, accounts must exist', async () => {
    const account = await createAccount(db.sql);
    await expect(addCredits(db.sql, account.id, -5, 'neg')).rejects.toThrow(AccountError);
    await expect(addCredits(db.sql, account.id, 1.5, 'frac')).rejects.toThrow(AccountError);
    await expect(addCredits(db.sql, 987654321, 5, 'ghost')).rejects.toThrow(AccountError);
    await expect(createApiKey(db.sql, 987654321)).rejects.toThrow(AccountError);
  });

  it('the balance can never go below zero, even by a direct update', async () => {
    const account = await createAccount(db.sql);
    await expect(db.sql`UPDATE accounts SET balance = -1 WHERE id = ${account.id}`).rejects.toThrow(/check/);
  });
});
