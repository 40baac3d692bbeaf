import { randomBytes } from 'node:crypto';
import { eraseAccount } from '../data/account-erasure.ts';
import { insertToken, usableToken, useEmailChangeToken } from '../data/account-tokens.ts';
import type { Sql } from '../data/client.ts';
import { changeEmail, findLogin, loginOf, setPassword } from '../data/logins.ts';
import { endOtherSessions } from '../data/sessions.ts';
import type { Mailer } from '../mail/mailer.ts';
import { type FieldProblem, LINK_LIFETIME_SECONDS, lines, tokenHash } from './account-holders.ts';
import { AttemptLimits } from './attempt-limits.ts';
import { isPlausibleEmail, normalizeEmail } from './email.ts';
import { hashPassword, passwordMatches, passwordProblem } from './passwords.ts';
import { TwoFactor } from './two-factor.ts';

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

  constructor(private readonly deps: { sql: Sql; mailer: Mailer; publicUrl: () => URL; log: (line: string) => void }) {
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
    this.#tell(
      [login.email],
      'Your password was changed',
      'The password of your Advertiser Lookup API account was changed.',
    );
    return null;
  }

  /**
   * Asks to move the sign-in to `newEmail` (R12.18): a link to the new address confirms it, the
   * current address is told. Nothing changes until the link is used. The answer is the same
   * whether or not the new address has an account (R12.9); one that has gets no link.
   */
  async requestEmailChange(asker: Asker, current: string, newEmail: string): Promise<ChangeRefusal | null> {
    if (!isPlausibleEmail(newEmail))
      return { field: 'email', message: 'Enter an email address such as you@example.com.' };
    const login = await loginOf(this.deps.sql, asker.accountId);
    if (login === null) return { field: 'current', message: 'This account has no sign-in to change.' };
    if (normalizeEmail(newEmail) === normalizeEmail(login.email))
      return { field: 'email', message: 'That is already your address.' };
    const refused = await this.checkCurrentPassword(asker, current);
    if (refused !== null) return refused;
    const address = newEmail.trim();
    this.#later(async () => {
      if ((await findLogin(this.deps.sql, normalizeEmail(address))) === null) {
        const token = randomBytes(32).toString('base64url');
        await insertToken(this.deps.sql, {
          tokenHash: tokenHash(token),
          accountId: asker.accountId,
          purpose: 'change_email',
          expiresAt: new Date(Date.now() + LINK_LIFETIME_SECONDS.change_email * 1000),
          newEmail: address,
        });
        const link = new URL(`/account/confirm-email?token=${token}`, this.deps.publicUrl()).toString();
        await this.deps.mailer.send({
          to: address,
          subject: 'Confirm your new email address',
          text: lines(
            'Someone asked to use this address to sign in to an Advertiser Lookup API account.',
            'Confirm it here (the link works for 24 hours, once):',
            link,
            'If it was not you, ignore this email: nothing changes.',
          ),
        });
      }
      const reset = new URL('/account/forgot-password', this.deps.publicUrl()).toString();
      await this.deps.mailer.send({
        to: login.email,
        subject: 'A change of your email address was asked for',
        text: lines(
          `Someone signed in to your Advertiser Lookup API account asked to sign in with ${address} from now on.`,
          'The change applies only when the link sent to that address is followed. Until then, this address stays.',
          'If it was not you, reset your password now (it signs every browser out):',
          reset,
        ),
      });
    });
    return null;
  }

  /** Whether the change-of-address link can still be used (the page before the click that uses it). */
  async emailChangeLinkUsable(token: string): Promise<boolean> {
    return (await usableToken(this.deps.sql, tokenHash(token), 'change_email')) !== null;
  }

  /** Applies a change of address with its link; the new address, or why not. */
  async confirmEmailChange(
    token: string,
  ): Promise<{ accountId: number; email: string } | 'link-unusable' | 'address-taken'> {
    const change = await useEmailChangeToken(this.deps.sql, tokenHash(token));
    if (change === null) return 'link-unusable';
    const before = await loginOf(this.deps.sql, change.accountId);
    const moved = await changeEmail(this.deps.sql, {
      accountId: change.accountId,
      email: change.newEmail,
      emailNormalized: normalizeEmail(change.newEmail),
    });
    if (!moved) return 'address-taken';
    this.#tell(
      [...(before === null ? [] : [before.email]), change.newEmail],
      'Your sign-in address was changed',
      `Your Advertiser Lookup API account now signs in with ${change.newEmail}; its emails go there.`,
    );
    return { accountId: change.accountId, email: change.newEmail };
  }

  /**
   * Deletes the account (R12.19), with the current password and an explicit confirmation: keys
   * revoked, sessions ended, personal data erased, the ledger kept anonymised.
   */
  async deleteAccount(asker: Asker, current: string, confirmed: boolean): Promise<ChangeRefusal | null> {
    if (!confirmed)
      return { field: 'confirmation', message: 'Tick the box to confirm that the account is to be deleted.' };
    const refused = await this.checkCurrentPassword(asker, current);
    if (refused !== null) return refused;
    // The address is erased with the account: read it first.
    const login = await loginOf(this.deps.sql, asker.accountId);
    await eraseAccount(this.deps.sql, asker.accountId);
    if (login !== null)
      this.#tell(
        [login.email],
        'Your account was deleted',
        'Your Advertiser Lookup API account was deleted: its keys are revoked and this address is erased.',
        { wayBack: false },
      );
    return null;
  }

  /**
   * Turns two-factor sign-in on with the current password and a code of the app being set up
   * (R12.17): a stolen session alone cannot lock the owner out. The recovery codes, or why not.
   */
  async enableTwoFactor(
    asker: Asker,
    email: string,
    current: string,
    code: string,
  ): Promise<ChangeRefusal | { recoveryCodes: string[] }> {
    const refused = await this.checkCurrentPassword(asker, current);
    if (refused !== null) return refused;
    const recoveryCodes = await new TwoFactor(this.deps.sql).confirmSetup(asker.accountId, email, code);
    if (recoveryCodes === null)
      return { field: 'code', message: 'That code is not right. Enter the one the app shows now.' };
    this.#tell(
      [email],
      'Two-factor sign-in was turned on',
      'Signing in to your Advertiser Lookup API account now asks for a code from an authenticator app.',
    );
    return { recoveryCodes };
  }

  /** Turns two-factor sign-in off (R12.20), with the current password. */
  async disableTwoFactor(asker: Asker, current: string): Promise<ChangeRefusal | null> {
    const refused = await this.checkCurrentPassword(asker, current);
    if (refused !== null) return refused;
    await new TwoFactor(this.deps.sql).disable(asker.accountId);
    const login = await loginOf(this.deps.sql, asker.accountId);
    if (login !== null)
      this.#tell(
        [login.email],
        'Two-factor sign-in was turned off',
        'Signing in to your Advertiser Lookup API account asks for the password alone again.',
      );
    return null;
  }

  /**
   * Tells the account's address(es) of a security change after the answer (R12.17), with the way
   * back for an owner who did not make it.
   */
  #tell(to: string[], subject: string, what: string, { wayBack = true } = {}): void {
    const reset = new URL('/account/forgot-password', this.deps.publicUrl()).toString();
    const text = wayBack
      ? lines(what, 'If it was not you, reset your password now (it signs every browser out):', reset)
      : lines(what);
    this.#later(async () => {
      for (const address of to) await this.deps.mailer.send({ to: address, subject, text });
    });
  }

  /** Work after the answer; its failure is logged without the link (a token never reaches the log). */
  #later(work: () => Promise<void>): void {
    setImmediate(() => {
      work().catch((error: Error) => this.deps.log(`Could not send an account email: ${error.message}`));
    });
  }
}
