import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/** How many requests one API key may make per window; a quota of 0 turns the limit off. */
export interface RateLimitPolicy {
  requests: number;
  windowSeconds: number;
}

/** A key's standing under the policy: what is left of the current window and when it ends. */
export interface Quota {
  /** This request was over the quota (429). */
  limited: boolean;
  remaining: number;
  /** Seconds until the window ends and the full quota is back. */
  resetSeconds: number;
}

/** The policy's name in the RateLimit headers: the quota belongs to the API key. */
const POLICY_NAME = 'per-key';

/**
 * The per-key rate limit, held in this process (the service runs as one process): a fixed window
 * per API key, counted by rate-limiter-flexible's in-memory limiter, whose entries expire with
 * their window. Keys are identified by their SHA-256, never by their plaintext.
 */
export class KeyRateLimit {
  readonly #limiter: RateLimiterMemory;

  constructor(readonly policy: RateLimitPolicy) {
    if (!(policy.requests > 0))
      throw new Error('a rate limit needs a quota of at least one request; use no limit to turn it off');
    this.#limiter = new RateLimiterMemory({ points: policy.requests, duration: policy.windowSeconds });
  }

  /** Counts one request of the key and says whether it is within the quota. */
  async take(keyHash: Buffer): Promise<Quota> {
    try {
      return this.#quota(await this.#limiter.consume(keyHash.toString('hex')), false);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return this.#quota(rejection, true);
      throw rejection;
    }
  }

  /** The key's standing without counting a request (for answers that come before the limit is checked). */
  async standing(keyHash: Buffer): Promise<Quota> {
    const current = await this.#limiter.get(keyHash.toString('hex'));
    if (current === null)
      return { limited: false, remaining: this.policy.requests, resetSeconds: this.policy.windowSeconds };
    return this.#quota(current, false);
  }

  /**
   * Uncounts a request that turned out to carry no valid key: a key that does not exist has no
   * quota, and random keys must not fill the limiter's memory.
   */
  async giveBack(keyHash: Buffer): Promise<void> {
    const id = keyHash.toString('hex');
    const after = await this.#limiter.reward(id);
    if (after.consumedPoints <= 0) await this.#limiter.delete(id);
  }

  #quota(result: RateLimiterRes, limited: boolean): Quota {
    return {
      limited,
      remaining: Math.max(this.policy.requests - result.consumedPoints, 0),
      resetSeconds: Math.max(Math.ceil(result.msBeforeNext / 1000), 0),
    };
  }

  /**
   * The RateLimit-Policy and RateLimit response headers in the Structured Field syntax of
   * draft-ietf-httpapi-ratelimit-headers-11 (sections 3 and 4): a List with one Item, the policy
   * name as a String, with `q` (quota) and `w` (window, seconds) for the policy and `r`
   * (remaining) and `t` (seconds until the window resets) for the current standing.
   */
  headers(quota: Quota): Record<string, string> {
    return {
      'RateLimit-Policy': `"${POLICY_NAME}";q=${this.policy.requests};w=${this.policy.windowSeconds}`,
      RateLimit: `"${POLICY_NAME}";r=${quota.remaining};t=${quota.resetSeconds}`,
    };
  }

  /** Seconds a limited caller should wait: until its window resets (at least 1). */
  static retryAfter(quota: Quota): number {
    return Math.max(quota.resetSeconds, 1);
  }
}
