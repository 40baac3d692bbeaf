import { type AttemptWindow, giveBackAttempts, takeAttempts } from '../data/attempts.ts';
import type { Sql } from '../data/client.ts';

/**
 * How many sign-in failures and reset requests the page takes before it asks to wait
 * (docs/product-rules.md R12.8): per account address, so guessing one account's password is
 * slow from any number of machines; per client address, so one machine cannot try many
 * accounts. Sign-ups (R12.16): emails per address, so nobody's mailbox is flooded from the
 * form, and sign-ups per client. Counted in the database, so every service process shares the
 * same counts.
 */
export const LIMITS = {
  signInFailuresPerAddress: { scope: 'sign-in:address', points: 10, duration: 15 * 60 },
  signInFailuresPerClient: { scope: 'sign-in:client', points: 50, duration: 15 * 60 },
  resetRequestsPerAddress: { scope: 'reset:address', points: 3, duration: 60 * 60 },
  resetRequestsPerClient: { scope: 'reset:client', points: 20, duration: 60 * 60 },
  signUpEmailsPerAddress: { scope: 'sign-up-email:address', points: 3, duration: 60 * 60 },
  signUpsPerClient: { scope: 'sign-up:client', points: 20, duration: 60 * 60 },
} as const;

type Limit = (typeof LIMITS)[keyof typeof LIMITS];

/**
 * Every attempt is counted before it is tried, in one statement for all its limits, and goes
 * ahead only when its own count is within each allowance: parallel attempts cannot all see room
 * that only some of them have (R12.8).
 */
export class AttemptLimits {
  constructor(private readonly sql: Sql) {}

  /**
   * Takes a sign-in attempt (a password, or the second step's code) for this address from this
   * client: the seconds to wait when it is over either limit (then it must not be tried), else 0.
   */
  async signInAttempt(email: string, client: string): Promise<number> {
    return this.#take([
      [LIMITS.signInFailuresPerAddress, email],
      [LIMITS.signInFailuresPerClient, client],
    ]);
  }

  /** The attempt was right: it gives its count back, so only failures stay counted. */
  async signInRight(email: string, client: string): Promise<void> {
    await giveBackAttempts(this.sql, [
      { scope: LIMITS.signInFailuresPerAddress.scope, subject: email },
      { scope: LIMITS.signInFailuresPerClient.scope, subject: client },
    ]);
  }

  /** Counts a reset request; returns the seconds to wait when it is over either limit (nothing is sent then). */
  async resetRequested(email: string, client: string): Promise<number> {
    return this.#take([
      [LIMITS.resetRequestsPerAddress, email],
      [LIMITS.resetRequestsPerClient, client],
    ]);
  }

  /**
   * Counts a sign-up: the seconds the client must wait when it is over its limit (nothing is done
   * then), and whether the address may still be emailed.
   */
  async signUpAttempt(email: string, client: string): Promise<{ clientWait: number; mayEmail: boolean }> {
    const [address, fromClient] = await takeAttempts(this.sql, [
      counter(LIMITS.signUpEmailsPerAddress, email),
      counter(LIMITS.signUpsPerClient, client),
    ]);
    return {
      clientWait: waitOf([fromClient], [LIMITS.signUpsPerClient.points]),
      mayEmail: address.used <= LIMITS.signUpEmailsPerAddress.points,
    };
  }

  /** Counts one more confirmation email to the address (a sign-in before confirming); false: send none. */
  async mayEmailConfirmation(email: string): Promise<boolean> {
    const [address] = await takeAttempts(this.sql, [counter(LIMITS.signUpEmailsPerAddress, email)]);
    return address.used <= LIMITS.signUpEmailsPerAddress.points;
  }

  async #take(pairs: [Limit, string][]): Promise<number> {
    const windows = await takeAttempts(
      this.sql,
      pairs.map(([limit, subject]) => counter(limit, subject)),
    );
    return waitOf(
      windows,
      pairs.map(([limit]) => limit.points),
    );
  }
}

function counter(limit: Limit, subject: string) {
  return { scope: limit.scope, subject, windowSeconds: limit.duration };
}

/** The longest wait among the limits this attempt's count went beyond; 0 when it is within all. */
export function waitOf(windows: AttemptWindow[], allowances: number[]): number {
  let wait = 0;
  windows.forEach((window, i) => {
    if (window.used > allowances[i]) wait = Math.max(wait, Math.max(1, Math.ceil(window.resetMs / 1000)));
  });
  return wait;
}
