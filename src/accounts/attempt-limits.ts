import { type AttemptWindow, attemptWindows, clearAttempts, takeAttempt } from '../data/attempts.ts';
import type { Sql } from '../data/client.ts';

/**
 * How many sign-in failures and reset requests the page takes before it asks to wait
 * (docs/product-rules.md R12.8): per account address, so guessing one account's password is
 * slow from any number of machines; per client address, so one machine cannot try many
 * accounts. Counted in the database, so every service process shares the same counts.
 */
export const LIMITS = {
  signInFailuresPerAddress: { scope: 'sign-in:address', points: 10, duration: 15 * 60 },
  signInFailuresPerClient: { scope: 'sign-in:client', points: 50, duration: 15 * 60 },
  resetRequestsPerAddress: { scope: 'reset:address', points: 3, duration: 60 * 60 },
  resetRequestsPerClient: { scope: 'reset:client', points: 20, duration: 60 * 60 },
} as const;

type Limit = (typeof LIMITS)[keyof typeof LIMITS];

export class AttemptLimits {
  constructor(private readonly sql: Sql) {}

  /** Seconds to wait before the next sign-in may be tried for this address from this client; 0: go ahead. */
  async signInWait(email: string, client: string): Promise<number> {
    const windows = await attemptWindows(this.sql, [
      { scope: LIMITS.signInFailuresPerAddress.scope, subject: email },
      { scope: LIMITS.signInFailuresPerClient.scope, subject: client },
    ]);
    return waitOf(windows, [LIMITS.signInFailuresPerAddress.points, LIMITS.signInFailuresPerClient.points]);
  }

  async signInFailed(email: string, client: string): Promise<void> {
    await Promise.all([
      this.#take(LIMITS.signInFailuresPerAddress, email),
      this.#take(LIMITS.signInFailuresPerClient, client),
    ]);
  }

  /** A right password clears the address's failures (not the client's: it may be trying many). */
  async signInSucceeded(email: string): Promise<void> {
    await clearAttempts(this.sql, LIMITS.signInFailuresPerAddress.scope, email);
  }

  /** Counts a reset request; returns the seconds to wait when it is over either limit (nothing is sent then). */
  async resetRequested(email: string, client: string): Promise<number> {
    const windows = await Promise.all([
      this.#take(LIMITS.resetRequestsPerAddress, email),
      this.#take(LIMITS.resetRequestsPerClient, client),
    ]);
    return waitOf(windows, [LIMITS.resetRequestsPerAddress.points + 1, LIMITS.resetRequestsPerClient.points + 1]);
  }

  #take(limit: Limit, subject: string): Promise<AttemptWindow> {
    return takeAttempt(this.sql, limit.scope, subject, limit.duration);
  }
}

/** The longest wait among limits whose count reached their allowance. */
function waitOf(windows: (AttemptWindow | null)[], allowances: number[]): number {
  let wait = 0;
  windows.forEach((window, i) => {
    if (window !== null && window.used >= allowances[i]) wait = Math.max(wait, Math.ceil(window.resetMs / 1000));
  });
  return wait;
}
