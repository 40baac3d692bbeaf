import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ApiError,
  idempotencyKeyBusy,
  idempotencyKeyReused,
  rateLimited,
  unauthorized,
} from '../contract/errors.ts';
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
import type { Credits } from './credits.ts';
import type { KeyRateLimit, Quota } from './rate-limit.ts';

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

/**
 * What the admission of a call with an Idempotency-Key came to, with what it learnt of the key:
 * the credits (nothing charged, the balance) and the rate-limit standing, once the key proved valid.
 */
export type Admission = { credits?: Credits; quota?: Quota } & (
  | {
      outcome: 'admitted';
      claim: Claim;
      caller: Caller;
      balance: number;
      /** The charge of an abandoned claim this request took over: the call is already paid. */
      chargeId: number | null;
    }
  /** The call already ran: its stored response is the answer, for the charge it was paid by (null: free). */
  | { outcome: 'replayed'; response: StoredResponse; chargeId: number | null }
  | { outcome: 'refused'; error: ApiError }
);

/** The answer a call gave, as its claim stores it for a replay. */
export interface Answer {
  status: number;
  /** Read only when the answer is stored. */
  read: () => Promise<{ contentType: string | null; body: Buffer }>;
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
   * then the claim. Returns the claim this request holds, or the answer: a refusal, or the stored
   * response to replay.
   */
  async function admit(request: IdempotentRequest & { callId: string; keyHash: Buffer }): Promise<Admission> {
    const started = performance.now();
    let counted = false;
    let credits: Credits | undefined;
    let quota: Quota | undefined;
    for (let attempt = 0; ; attempt++) {
      const at = now();
      if (at.getTime() - lastPurge >= PURGE_EVERY_MS) {
        lastPurge = at.getTime();
        await purgeExpiredKeys(sql, new Date(at.getTime() - IDEMPOTENCY_KEY_LIFETIME_MS));
      }
      const admission = await claimIdempotencyKey(sql, {
        ...request,
        runId: runId(),
        now: at,
        expiredAt: new Date(at.getTime() - IDEMPOTENCY_KEY_LIFETIME_MS),
        abandonedAt: new Date(at.getTime() - CLAIM_ABANDONED_AFTER_MS),
      });
      if (admission.outcome === 'unauthorized') return { outcome: 'refused', error: unauthorized() };
      credits = { credits_charged: 0, credits_remaining: admission.balance };
      if (rateLimit && !counted) quota = rateLimit.standingIn(admission.window);
      if (admission.outcome === 'reused') return { outcome: 'refused', error: idempotencyKeyReused(), credits, quota };
      const claim = { accountId: admission.caller.accountId, key: request.key, callId: request.callId };
      // A call that runs its debit is counted by the debit statement; one answered without it (a
      // replay, a takeover of a paid call) is counted here, once, however long it waited.
      const debitless =
        admission.outcome === 'completed' || (admission.outcome === 'claimed' && admission.chargeId !== null);
      if (!counted && rateLimit && debitless) {
        counted = true;
        quota = await rateLimit.take(admission.caller.keyId);
        if (quota.limited) {
          if (admission.outcome === 'claimed') await releaseClaim(sql, claim);
          const error = rateLimited(rateLimit.policy.requests, rateLimit.policy.windowSeconds);
          return { outcome: 'refused', error, credits, quota };
        }
      }
      if (admission.outcome === 'claimed') {
        const { caller, balance, chargeId } = admission;
        return { outcome: 'admitted', claim, caller, balance, chargeId, credits, quota };
      }
      if (admission.outcome === 'completed') {
        const { response, chargeId } = admission;
        return { outcome: 'replayed', response, chargeId, credits, quota };
      }
      // Another request with the key is running: wait for its response (or for it to give the key back).
      if (performance.now() - started >= WAIT_FOR_FIRST_REQUEST_MS)
        return { outcome: 'refused', error: idempotencyKeyBusy(), credits, quota };
      await sleep(Math.min(10 * 2 ** attempt, 100));
    }
  }

  /**
   * After the call: a charged response (200, data 404, its charge not refunded) is stored for
   * replay; anything else gives the key back. A failure here must not turn a paid answer into an
   * error: the claim then stays 'running' until it counts as abandoned, and the request that takes
   * it over runs on this call's charge.
   */
  async function settle(
    claim: Claim,
    {
      chargeId,
      refunded,
      sandbox,
      free,
    }: { chargeId: number | null; refunded: boolean; sandbox: boolean; free: boolean },
    answer: Answer,
  ): Promise<void> {
    const status = answer.status;
    // A test key's answer has no charge and is kept all the same: the sandbox keeps every rule.
    // A free call that takes a key (createWatch) keeps what it made: the watch, created or found
    // (docs/product-rules.md R19.8).
    const kept = free ? status === 200 || status === 201 : (chargeId !== null || sandbox) && !refunded;
    if (kept && (free || status === 200 || status === 404)) {
      const { contentType, body } = await answer.read();
      await completeClaim(sql, claim, chargeId, { status, contentType, body });
    } else {
      await releaseClaim(sql, claim);
    }
  }

  return { admit, settle };
}
