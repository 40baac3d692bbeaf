import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { idempotencyKeyBusy, idempotencyKeyReused, rateLimited, unauthorized } from '../contract/errors.ts';
import type { Caller } from '../data/billing.ts';
import type { Sql } from '../data/client.ts';
import {
  type Claim,
  claimIdempotencyKey,
  completeClaim,
  type IdempotentRequest,
  purgeExpiredKeys,
  releaseClaim,
  type StoredResponse,
} from '../data/idempotency.ts';
import type { AppEnv } from '../http/app-env.ts';
import type { KeyRateLimit } from './rate-limit.ts';

/**
 * "Retries never pay twice" (docs/product-rules.md §7): a billed call with an
 * `Idempotency-Key` header claims the key for its account before it is charged. Of all requests
 * with the key, only the claim holder runs and pays; the others wait for it and replay its
 * response. The stored response of a charged call (200, data 404) is replayed for 24 hours; a call
 * that cost nothing in the end (402, 429, a refunded 5xx) gives the key back, so a retry runs again.
 */

/** A key stands for its first request for 24 hours. */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** A 'running' claim older than this was abandoned: its request will never finish (the service stopped). */
export const CLAIM_ABANDONED_AFTER_MS = 60_000;
/** How long a request waits for the first request with its key before it answers 503 (retry later). */
export const WAIT_FOR_FIRST_REQUEST_MS = 10_000;
/** Expired keys are purged at most this often (service clock). */
const PURGE_EVERY_MS = 10 * 60 * 1000;

/**
 * The request as the service understood it: parameters by name, values normalized, and the media
 * type asked for when it is not the operation's default, so that a key used for JSON is another
 * request in CSV (and the stored JSON of earlier keys still matches).
 */
export function canonicalQuery(query: Record<string, string | number>, otherMediaType?: string): string {
  const entries = Object.entries(query).map(([name, value]): [string, string] => [name, String(value)]);
  const canonical = new URLSearchParams(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString();
  return otherMediaType === undefined ? canonical : `${canonical} ${otherMediaType}`;
}

export interface Admitted {
  claim: Claim;
  caller: Caller;
  balance: number;
  /** The charge of an abandoned claim this request took over: the call is already paid. */
  chargeId: number | null;
}

export interface IdempotencyOptions {
  now: () => Date;
  rateLimit: KeyRateLimit | null;
  /** The service run the calls run in (their claims name it, so a retry takes them over once it ended). */
  runId: () => string;
}

/** One per app: the purge schedule follows the service clock. */
export function idempotency(sql: Sql, { now, rateLimit, runId }: IdempotencyOptions) {
  let lastPurge = -Infinity;

  /**
   * The checks of docs/product-rules.md §5 that follow the parameters (steps 7, 10, 11), for a call with an
   * Idempotency-Key: key (401) → reuse (422) → rate limit (429, here for a call that runs no debit),
   * then the claim. Returns the claim
   * this request holds, or throws the answer: an error, or the stored response to replay.
   */
  async function admit(c: Context<AppEnv>, request: IdempotentRequest & { callId: string }): Promise<Admitted> {
    const started = performance.now();
    let counted = false;
    for (let attempt = 0; ; attempt++) {
      const at = now();
      if (at.getTime() - lastPurge >= PURGE_EVERY_MS) {
        lastPurge = at.getTime();
        await purgeExpiredKeys(sql, new Date(at.getTime() - IDEMPOTENCY_KEY_LIFETIME_MS));
      }
      const admission = await claimIdempotencyKey(sql, {
        ...request,
        keyHash: c.get('apiKeyHash'),
        runId: runId(),
        now: at,
        expiredAt: new Date(at.getTime() - IDEMPOTENCY_KEY_LIFETIME_MS),
        abandonedAt: new Date(at.getTime() - CLAIM_ABANDONED_AFTER_MS),
      });
      if (admission.outcome === 'unauthorized') throw unauthorized();
      c.set('credits', { credits_charged: 0, credits_remaining: admission.balance });
      if (rateLimit && !counted) c.set('quota', rateLimit.standingIn(admission.window));
      if (admission.outcome === 'reused') throw idempotencyKeyReused();
      const claim = { accountId: admission.caller.accountId, key: request.key, callId: request.callId };
      // A call that runs its debit is counted by the debit statement; one answered without it (a
      // replay, a takeover of a paid call) is counted here, once, however long it waited.
      const debitless =
        admission.outcome === 'completed' || (admission.outcome === 'claimed' && admission.chargeId !== null);
      if (!counted && rateLimit && debitless) {
        counted = true;
        const quota = await rateLimit.take(admission.caller.keyId);
        c.set('quota', quota);
        if (quota.limited) {
          if (admission.outcome === 'claimed') await releaseClaim(sql, claim);
          throw rateLimited(rateLimit.policy.requests, rateLimit.policy.windowSeconds);
        }
      }
      if (admission.outcome === 'claimed') {
        return { claim, caller: admission.caller, balance: admission.balance, chargeId: admission.chargeId };
      }
      if (admission.outcome === 'completed') throw new Replay(admission.response, admission.chargeId);
      // Another request with the key is running: wait for its response (or for it to give the key back).
      if (performance.now() - started >= WAIT_FOR_FIRST_REQUEST_MS) throw idempotencyKeyBusy();
      await sleep(Math.min(10 * 2 ** attempt, 100));
    }
  }

  /**
   * After the call: a charged response (200, data 404, its charge not refunded) is stored for
   * replay; anything else gives the key back. A failure here must not turn a paid answer into an
   * error: the claim then stays 'running' until it counts as abandoned, and the request that takes
   * it over runs on this call's charge.
   */
  async function settle(c: Context<AppEnv>, claim: Claim, chargeId: number | null, refunded: boolean): Promise<void> {
    const status = c.res.status;
    // A test key's answer has no charge and is kept all the same: the sandbox keeps every rule.
    const answered = chargeId !== null || c.get('sandbox');
    if (answered && !refunded && (status === 200 || status === 404)) {
      const body = Buffer.from(await c.res.clone().arrayBuffer());
      await completeClaim(sql, claim, chargeId, { status, contentType: c.res.headers.get('content-type'), body });
    } else {
      await releaseClaim(sql, claim);
    }
  }

  return { admit, settle };
}

/** Header that marks a replayed response. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/**
 * The stored response as the answer to this request: status and body byte for byte, marked as a
 * replay. Thrown like Hono's HTTPException, so the handler does not run; the credit and rate-limit
 * headers are added afterwards and describe this request (nothing charged, the current balance).
 * It carries the charge it answers for: a replay that reaches the caller delivers that charge.
 */
export class Replay extends HTTPException {
  constructor(
    stored: StoredResponse,
    /** Null for a test key's answer, which was free. */
    readonly chargeId: number | null,
  ) {
    const headers: Record<string, string> = { [REPLAYED_HEADER]: 'true' };
    if (stored.contentType !== null) headers['Content-Type'] = stored.contentType;
    super(stored.status as 200, { res: new Response(new Uint8Array(stored.body), { status: stored.status, headers }) });
  }
}
