import { createHash, randomBytes } from 'node:crypto';
import { insertToken, type TokenPurpose, usableToken, useToken } from '../data/account-tokens.ts';
import type { Sql } from '../data/client.ts';
import { createAccountWithLogin, emailOf, findLogin, markEmailVerified, setPassword } from '../data/logins.ts';
import { endAllSessions } from '../data/sessions.ts';
import type { Mailer } from '../mail/mailer.ts';
import { AttemptLimits } from './attempt-limits.ts';
import { isPlausibleEmail, normalizeEmail } from './email.ts';
import { hashPassword, passwordMatches, passwordProblem } from './passwords.ts';
import { TwoFactor } from './two-factor.ts';

/** How long the links sent by email work (docs/product-rules.md R12.2, R12.6). */
export const LINK_LIFETIME_SECONDS: Record<TokenPurpose, number> = {
  verify_email: 24 * 60 * 60,
  reset_password: 60 * 60,
  change_email: 24 * 60 * 60,
};

export type SignInOutcome =
  | { outcome: 'signed-in'; accountId: number }
  | { outcome: 'second-step'; accountId: number }
  | { outcome: 'refused' }
  | { outcome: 'unverified' }
  | { outcome: 'disabled' }
  | { outcome: 'wait'; seconds: number };

/** A form field's problem, to show next to it. */
export interface FieldProblem {
  field: 'email' | 'password' | 'current' | 'code' | 'confirmation';
  message: string;
}

/** An email's text: paragraphs apart, so every link is on a line of its own. */
export function lines(...paragraphs: string[]): string {
  return `${paragraphs.join('\n\n')}\n`;
}

export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/**
 * What an account holder can do before a session exists: sign up, verify the address, sign in,
 * reset a forgotten password (docs/product-rules.md §12). Whether an address is registered never
 * shows in an answer or its timing: the work that differs (tokens, emails) happens after the
 * answer, and an unknown address is checked against a password hash all the same.
 */
export class AccountHolders {
  readonly #limits: AttemptLimits;
  readonly #twoFactor: TwoFactor;

  constructor(
    private readonly deps: {
      sql: Sql;
      mailer: Mailer;
      publicUrl: () => URL;
      log: (line: string) => void;
    },
  ) {
    this.#limits = new AttemptLimits(deps.sql);
    this.#twoFactor = new TwoFactor(deps.sql);
  }

  /**
   * Null when the sign-up went ahead (or the address was taken: its holder is told by email; or it
   * was emailed enough this hour: nothing is done, and the answer is the same); `wait` when this
   * client signed up too often (R12.16).
   */
  async signUp(email: string, password: string, client: string): Promise<FieldProblem | { wait: number } | null> {
    if (!isPlausibleEmail(email)) return { field: 'email', message: 'Enter an email address such as you@example.com.' };
    const problem = await passwordProblem(password, email);
    if (problem !== null) return { field: 'password', message: problem };
    const emailNormalized = normalizeEmail(email);
    const { clientWait, mayEmail } = await this.#limits.signUpAttempt(emailNormalized, client);
    if (clientWait > 0) return { wait: clientWait };
    if (!mayEmail) return null;
    const passwordHash = await hashPassword(password);
    const accountId = await createAccountWithLogin(this.deps.sql, {
      email: email.trim(),
      emailNormalized,
      passwordHash,
    });
    if (accountId !== null) this.#later(() => this.#sendLink(accountId, email.trim(), 'verify_email'));
    else this.#later(() => this.#sendAlreadyRegistered(emailNormalized));
    return null;
  }

  /**
   * Verifies the address of the link's token: the account and whether the link may sign in, or
   * null when the link is unknown, used or expired.
   */
  async verifyEmail(token: string): Promise<{ accountId: number; signsIn: boolean } | null> {
    const accountId = await useToken(this.deps.sql, tokenHash(token), 'verify_email');
    if (accountId === null) return null;
    const confirmedNow = await markEmailVerified(this.deps.sql, accountId);
    // Only the link that confirms a new address signs in (R12.2): an older one left in the
    // mailbox of a confirmed account would be a way in without the password or the second step.
    const login = await findLogin(this.deps.sql, normalizeEmail(await emailOf(this.deps.sql, accountId)));
    return { accountId, signsIn: confirmedNow && login !== null && !login.twoFactor && !login.disabled };
  }

  /** Whether the link's token can still be used (the page before the click that uses it). */
  async linkUsable(token: string, purpose: TokenPurpose): Promise<boolean> {
    return (await usableToken(this.deps.sql, tokenHash(token), purpose)) !== null;
  }

  async signIn(email: string, password: string, client: string): Promise<SignInOutcome> {
    const emailNormalized = normalizeEmail(email);
    const wait = await this.#limits.signInAttempt(emailNormalized, client);
    if (wait > 0) return { outcome: 'wait', seconds: wait };
    const login = await findLogin(this.deps.sql, emailNormalized);
    if (!(await passwordMatches(login?.passwordHash ?? null, password)) || login === null) {
      return { outcome: 'refused' };
    }
    await this.#limits.signInRight(emailNormalized, client);
    if (login.disabled) return { outcome: 'disabled' };
    if (!login.verified) {
      this.#later(async () => {
        if (await this.#limits.mayEmailConfirmation(emailNormalized))
          await this.#sendLink(login.accountId, login.email, 'verify_email');
      });
      return { outcome: 'unverified' };
    }
    if (login.twoFactor) return { outcome: 'second-step', accountId: login.accountId };
    return { outcome: 'signed-in', accountId: login.accountId };
  }

  /**
   * The sign-in's second step: the code of the account's app, or a recovery code. Counted like a
   * password against both sign-in limits (R12.8, R12.20), so the code cannot be guessed either.
   */
  async secondStep(
    login: { accountId: number; email: string },
    code: string,
    client: string,
  ): Promise<'right' | 'wrong' | { wait: number }> {
    const emailNormalized = normalizeEmail(login.email);
    const wait = await this.#limits.signInAttempt(emailNormalized, client);
    if (wait > 0) return { wait };
    if (!(await this.#twoFactor.codeRight(login.accountId, login.email, code))) return 'wrong';
    await this.#limits.signInRight(emailNormalized, client);
    return 'right';
  }

  /** Sends a reset link when the address has a sign-in; the seconds to wait when asked too often (nothing is sent). */
  async requestReset(email: string, client: string): Promise<number> {
    const emailNormalized = normalizeEmail(email);
    const wait = await this.#limits.resetRequested(emailNormalized, client);
    if (wait > 0) return wait;
    this.#later(async () => {
      const login = await findLogin(this.deps.sql, emailNormalized);
      if (login !== null && !login.disabled) await this.#sendLink(login.accountId, login.email, 'reset_password');
    });
    return 0;
  }

  /**
   * Sets a new password with a reset link: every session of the account ends (whoever else was
   * signed in is out), and the link and any older one stop working.
   */
  async resetPassword(token: string, password: string): Promise<FieldProblem | 'link-unusable' | null> {
    const accountId = await usableToken(this.deps.sql, tokenHash(token), 'reset_password');
    if (accountId === null) return 'link-unusable';
    const problem = await passwordProblem(password, await emailOf(this.deps.sql, accountId));
    if (problem !== null) return { field: 'password', message: problem };
    const passwordHash = await hashPassword(password);
    if ((await useToken(this.deps.sql, tokenHash(token), 'reset_password')) === null) return 'link-unusable';
    await setPassword(this.deps.sql, accountId, passwordHash);
    await endAllSessions(this.deps.sql, accountId);
    return null;
  }

  async #sendLink(accountId: number, email: string, purpose: TokenPurpose): Promise<void> {
    const token = randomBytes(32).toString('base64url');
    await insertToken(this.deps.sql, {
      tokenHash: tokenHash(token),
      accountId,
      purpose,
      expiresAt: new Date(Date.now() + LINK_LIFETIME_SECONDS[purpose] * 1000),
    });
    const path = purpose === 'verify_email' ? 'verify' : 'reset-password';
    const link = new URL(`/account/${path}?token=${token}`, this.deps.publicUrl()).toString();
    await this.deps.mailer.send(
      purpose === 'verify_email'
        ? {
            to: email,
            subject: 'Confirm your email address',
            text: lines(
              'Welcome to the Advertiser Lookup API.',
              'Confirm your address to sign in (the link works for 24 hours):',
              link,
              'If you did not sign up, ignore this email.',
            ),
          }
        : {
            to: email,
            subject: 'Reset your password',
            text: lines(
              'Someone asked to reset the password of your Advertiser Lookup API account.',
              'Choose a new password here (the link works for one hour, once):',
              link,
              'If it was not you, ignore this email: your password stays as it is.',
            ),
          },
    );
  }

  async #sendAlreadyRegistered(emailNormalized: string): Promise<void> {
    const login = await findLogin(this.deps.sql, emailNormalized);
    if (login === null) return;
    const signIn = new URL('/account/sign-in', this.deps.publicUrl()).toString();
    const reset = new URL('/account/forgot-password', this.deps.publicUrl()).toString();
    await this.deps.mailer.send({
      to: login.email,
      subject: 'You already have an account',
      text: lines(
        'Someone tried to sign up with this address, which already has an account.',
        'Sign in:',
        signIn,
        'Forgot your password? Reset it:',
        reset,
        'If it was not you, ignore this email.',
      ),
    });
  }

  /** Work after the answer; its failure is logged without the link (a token never reaches the log). */
  #later(work: () => Promise<void>): void {
    setImmediate(() => {
      work().catch((error: Error) => this.deps.log(`Could not send an account email: ${error.message}`));
    });
  }
}
