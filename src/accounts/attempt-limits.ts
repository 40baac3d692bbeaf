import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * How many sign-in failures and reset requests the page takes before it asks to wait
 * (docs/product-rules.md R12.8): per account address, so guessing one account's password is
 * slow from any number of machines; per client address, so one machine cannot try many
 * accounts. Counted in this process's memory, like the API's rate limit.
 */
export const LIMITS = {
  signInFailuresPerAddress: { points: 10, duration: 15 * 60 },
  signInFailuresPerClient: { points: 50, duration: 15 * 60 },
  resetRequestsPerAddress: { points: 3, duration: 60 * 60 },
  resetRequestsPerClient: { points: 20, duration: 60 * 60 },
} as const;

export class AttemptLimits {
  readonly #signInByAddress = new RateLimiterMemory({ keyPrefix: 'a', ...LIMITS.signInFailuresPerAddress });
  readonly #signInByClient = new RateLimiterMemory({ keyPrefix: 'c', ...LIMITS.signInFailuresPerClient });
  readonly #resetByAddress = new RateLimiterMemory({ keyPrefix: 'r', ...LIMITS.resetRequestsPerAddress });
  readonly #resetByClient = new RateLimiterMemory({ keyPrefix: 'rc', ...LIMITS.resetRequestsPerClient });

  /** Seconds to wait before the next sign-in may be tried for this address from this client; 0: go ahead. */
  async signInWait(email: string, client: string): Promise<number> {
    return waitOf(await Promise.all([this.#signInByAddress.get(email), this.#signInByClient.get(client)]), [
      LIMITS.signInFailuresPerAddress.points,
      LIMITS.signInFailuresPerClient.points,
    ]);
  }

  async signInFailed(email: string, client: string): Promise<void> {
    await Promise.all([consume(this.#signInByAddress, email), consume(this.#signInByClient, client)]);
  }

  /** A right password clears the address's failures (not the client's: it may be trying many). */
  async signInSucceeded(email: string): Promise<void> {
    await this.#signInByAddress.delete(email);
  }

  /** Counts a reset request; returns the seconds to wait when it is over either limit (nothing is sent then). */
  async resetRequested(email: string, client: string): Promise<number> {
    const results = await Promise.all([consume(this.#resetByAddress, email), consume(this.#resetByClient, client)]);
    return waitOf(results, [LIMITS.resetRequestsPerAddress.points + 1, LIMITS.resetRequestsPerClient.points + 1]);
  }
}

async function consume(limiter: RateLimiterMemory, key: string): Promise<RateLimiterRes> {
  try {
    return await limiter.consume(key);
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return rejection;
    throw rejection;
  }
}

/** The longest wait among limits whose count reached their allowance. */
function waitOf(results: (RateLimiterRes | null)[], allowances: number[]): number {
  let wait = 0;
  results.forEach((result, i) => {
    if (result !== null && result.consumedPoints >= allowances[i])
      wait = Math.max(wait, Math.ceil(result.msBeforeNext / 1000));
  });
  return wait;
}
