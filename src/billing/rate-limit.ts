import type { Sql } from '../data/client.ts';
import { type RateWindow, rateLimitStanding, takeRateLimit } from '../data/rate-limit.ts';

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
 * The per-key rate limit: a fixed window per API key, counted in the database
 * (migrations/00015_shared-limits), so every service process on it shares one quota per key.
 * The debit statement counts the calls it checks, in the same round trip (`DebitRequest.rateLimit`);
 * this reads a key's standing and counts the few calls that run no debit.
 */
export class KeyRateLimit {
  constructor(
    readonly policy: RateLimitPolicy,
    private readonly sql: Sql,
  ) {
    if (!(policy.requests > 0))
      throw new Error('a rate limit needs a quota of at least one request; use no limit to turn it off');
  }

  /** What the debit statement is asked to count a call against. */
  get debitLimit(): { quota: number; windowSeconds: number } {
    return { quota: this.policy.requests, windowSeconds: this.policy.windowSeconds };
  }

  /** Counts one call of a valid key that runs no debit and says whether it is within the quota. */
  async take(keyId: number): Promise<Quota> {
    return this.quota(await takeRateLimit(this.sql, keyId, this.policy.windowSeconds));
  }

  /** The key's standing without counting a request (for answers that come before the limit is checked). */
  async standing(keyHash: Buffer): Promise<Quota> {
    return this.standingIn(await rateLimitStanding(this.sql, keyHash));
  }

  /** The standing of a key whose window a statement read (null: it has none, the whole quota is left). */
  standingIn(window: RateWindow | null): Quota {
    if (window === null)
      return { limited: false, remaining: this.policy.requests, resetSeconds: this.policy.windowSeconds };
    return { ...this.quota(window), limited: false };
  }

  /** A call's standing from its place in the window: over the quota, it is limited. */
  quota({ used, resetMs }: RateWindow): Quota {
    return {
      limited: used > this.policy.requests,
      remaining: Math.max(this.policy.requests - used, 0),
      resetSeconds: Math.max(Math.ceil(resetMs / 1000), 0),
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
