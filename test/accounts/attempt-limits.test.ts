import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountHolders } from '../../src/accounts/account-holders.ts';
import { LIMITS } from '../../src/accounts/attempt-limits.ts';
import { hashPassword } from '../../src/accounts/passwords.ts';
import { createAccount } from '../../src/data/accounts.ts';
import { addLogin } from '../../src/data/logins.ts';
import { logMailer } from '../../src/mail/mailer.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

/**
 * The account page's attempt limits are counted in the database (docs/product-rules.md R12.8,
 * R18.3): each service process has its own AccountHolders, and between them they allow no more
 * tries than one.
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe('attempt limits across service processes', () => {
  const holders = () =>
    new AccountHolders({
      sql: db.sql,
      mailer: logMailer(() => {}),
      publicUrl: () => new URL('http://x'),
      log: () => {},
    });

  it('two processes allow 10 failed sign-ins for an address between them, then both ask to wait', async () => {
    const [one, two] = [holders(), holders()];
    const allowed = LIMITS.signInFailuresPerAddress.points;
    const outcomes = [];
    for (let i = 0; i < allowed + 2; i++)
      outcomes.push(
        (await (i % 2 === 0 ? one : two).signIn('shared@example.com', `guess ${i}`, `10.0.0.${i}`)).outcome,
      );
    expect(outcomes).toEqual([...Array(allowed).fill('refused'), 'wait', 'wait']);
    const waits = await Promise.all([one, two].map((h) => h.signIn('shared@example.com', 'guess', '10.0.1.1')));
    for (const wait of waits) {
      expect(wait.outcome).toBe('wait');
      expect(wait.outcome === 'wait' && wait.seconds).toBeGreaterThan(14 * 60);
    }
  });

  it('two processes allow 3 reset requests for an address an hour between them', async () => {
    const [one, two] = [holders(), holders()];
    const waits = [];
    for (let i = 0; i < 5; i++)
      waits.push(await (i % 2 === 0 ? one : two).requestReset('resets@example.com', `10.0.2.${i}`));
    expect(waits.map((wait) => wait > 0)).toEqual([false, false, false, true, true]);
  });

  it('70 sign-ins at once for one address, the right password among them: at most 10 are tried', async () => {
    const one = holders();
    const email = 'burst@example.com';
    const accountId = (await createAccount(db.sql, { email })).id;
    await addLogin(db.sql, {
      accountId,
      email,
      emailNormalized: email,
      passwordHash: await hashPassword('the right passphrase'),
      verified: true,
    });
    const passwords = Array.from({ length: 70 }, (_, i) => (i === 35 ? 'the right passphrase' : `guess ${i}`));
    const outcomes = await Promise.all(passwords.map((password) => one.signIn(email, password, '10.0.3.1')));
    const tried = outcomes.filter((o) => o.outcome !== 'wait').length;
    expect(tried).toBeLessThanOrEqual(LIMITS.signInFailuresPerAddress.points);
    expect(outcomes.filter((o) => o.outcome === 'wait').length).toBeGreaterThanOrEqual(60);
    // The right password beyond the limit is refused like any other.
    if (outcomes[35].outcome !== 'signed-in') expect(outcomes[35].outcome).toBe('wait');
  });

  it('70 sign-ins at once from one client, each for another address: at most 50 are tried', async () => {
    const one = holders();
    const outcomes = await Promise.all(
      Array.from({ length: 70 }, (_, i) => one.signIn(`client-burst-${i}@example.com`, 'a guess', '10.0.4.1')),
    );
    expect(outcomes.filter((o) => o.outcome !== 'wait').length).toBe(LIMITS.signInFailuresPerClient.points);
  });
});
