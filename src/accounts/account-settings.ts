import type { Sql } from '../data/client.ts';
import { loginOf, setPassword } from '../data/logins.ts';
import { endOtherSessions } from '../data/sessions.ts';
import type { FieldProblem } from './account-holders.ts';
import { AttemptLimits } from './attempt-limits.ts';
import { normalizeEmail } from './email.ts';
import { hashPassword, passwordMatches, passwordProblem } from './passwords.ts';

/** Who asks for a change: the signed-in account, its session, and the client it came from. */
export interface Asker {
  accountId: number;
  sessionIdHash: Buffer;
  client: string;
}

/** A refusal of a change: a field's problem, or too many wrong current passwords (seconds to wait). */
export type ChangeRefusal = FieldProblem | { wait: number };

/**
 * What a signed-in account holder changes about the account (docs/product-rules.md §12, account
 * settings). Every change asks for the current password: a browser left signed in is not enough.
 * A wrong current password counts as a failed sign-in (R12.8), so a stolen session cannot guess it.
 */
export class AccountSettings {
  readonly #limits: AttemptLimits;

  constructor(private readonly deps: { sql: Sql }) {
    this.#limits = new AttemptLimits(deps.sql);
  }

  /** Null when the current password is right; else why not (nothing changes). */
  async checkCurrentPassword(asker: Asker, current: string): Promise<ChangeRefusal | null> {
    const login = await loginOf(this.deps.sql, asker.accountId);
    if (login === null) return { field: 'current', message: 'This account has no password to check.' };
    const wait = await this.#limits.signInAttempt(normalizeEmail(login.email), asker.client);
    if (wait > 0) return { wait };
    if (!(await passwordMatches(login.passwordHash, current)))
      return { field: 'current', message: 'That is not your current password.' };
    await this.#limits.signInRight(normalizeEmail(login.email), asker.client);
    return null;
  }

  /** Sets a new password (R12.3 applies) and signs every other browser out; null when done. */
  async changePassword(asker: Asker, current: string, next: string): Promise<ChangeRefusal | null> {
    const login = await loginOf(this.deps.sql, asker.accountId);
    if (login === null) return { field: 'current', message: 'This account has no password to change.' };
    const problem = await passwordProblem(next, login.email);
    if (problem !== null) return { field: 'password', message: problem };
    const refused = await this.checkCurrentPassword(asker, current);
    if (refused !== null) return refused;
    await setPassword(this.deps.sql, asker.accountId, await hashPassword(next));
    await endOtherSessions(this.deps.sql, asker.accountId, asker.sessionIdHash);
    return null;
  }
}
