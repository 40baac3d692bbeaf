import { randomUUID } from 'node:crypto';
import { type ApiError, dailyCapReached, insufficientCredits, rateLimited, unauthorized } from '../contract/errors.ts';
import type { Caller, Channel, DebitResult } from '../data/billing.ts';
import type { Sql } from '../data/client.ts';
import { isOutcomeUnknown } from '../data/errors.ts';
import type { Claim, StoredResponse } from '../data/idempotency.ts';
import type { Billing } from './billing.ts';
import type { Credits } from './credits.ts';
import { type Answer, canonicalQuery, idempotency } from './idempotency.ts';
import type { KeyRateLimit, Quota } from './rate-limit.ts';

export interface PaidCallsOptions {
  /** The service's clock (Idempotency-Key lifetimes and the daily cap's reset follow it). */
  now: () => Date;
  /** The per-key rate limit; null when it is turned off. */
  rateLimit: KeyRateLimit | null;
}

/** A call as billing first sees it: who calls (the hash of a well-formed key) and what it costs. */
export interface CallStart {
  operationId: string;
  /** The operation's `x-credit-cost`; 0 for a free operation, whose debit only proves the key. */
  price: number;
  keyHash: Buffer;
  /** A test key: free calls on the sandbox's data (docs/product-rules.md §17). */
  sandbox: boolean;
  requestId: string;
  /** How the call came (an HTTP request or an MCP tool call); its charge records it. */
  channel: Channel;
}

/** What the call asks, once its parameters are valid: the same ask under one Idempotency-Key replays. */
export interface CallAsk {
  /** The parameters, normalized. */
  query: Record<string, string | number>;
  /** The media type asked for, when it is not the operation's default. */
  otherMediaType: string | undefined;
  idempotencyKey: string | undefined;
}

/**
 * What paying for a call came to, with what billing learnt of the key on the way: the credits
 * (the price paid and the balance after it) and the rate-limit standing, once the key proved valid.
 * `charged`: paid, taken over already paid, or free; the handler runs. `replayed`: the call ran
 * before under the same Idempotency-Key; its stored response is the answer, nothing is charged.
 * `refused`: refused before anything was charged (401, 402, 403, 422, 429, a key still busy).
 */
export type Payment = { credits?: Credits; quota?: Quota } & (
  | { outcome: 'charged'; credits: Credits; caller: Caller }
  | { outcome: 'replayed'; response: StoredResponse }
  | { outcome: 'refused'; error: ApiError }
);

/** What the end of a call came to, once its answer is known. */
export interface CallEnd {
  /** A charged call failed on the server's side: its price given back now, or owed until the database is back. */
  refund?: { refunded: number; owed: boolean; credits: Credits | undefined };
  /** The Idempotency-Key claim could not be settled; the answer stands. */
  fault?: unknown;
  /** The answer delivers a charge: whether it left the process is to be told to `answerLeft`. */
  delivers: boolean;
}

/**
 * The billing of API calls, framework-free: each call pays through `begin(…).pay(…)`, which
 * returns what it came to instead of answering, and ends with `end(…)`; the HTTP edge
 * (http/billing.ts) turns both into headers, an error body or the handler's run.
 */
export class PaidCalls {
  readonly #idempotent: ReturnType<typeof idempotency>;
  /** The per-key rate limit whose headers every answer to a valid key carries; null when off. */
  readonly rateLimit: KeyRateLimit | null;

  constructor(
    sql: Sql,
    private readonly service: Billing,
    private readonly options: PaidCallsOptions,
  ) {
    this.#idempotent = idempotency(sql, { ...options, runId: () => service.runId });
    this.rateLimit = options.rateLimit;
  }

  begin(start: CallStart): PaidCall {
    return new PaidCall(this.service, this.#idempotent, this.options, start);
  }
}

/** One call's money, from its debit to the delivery of its answer. */
export class PaidCall {
  readonly #callId = randomUUID();
  #chargeId: number | null = null;
  #claim: Claim | null = null;
  #refunded = false;
  /** The charge of the call whose stored response this one replays (null: it was free, or none). */
  #replayOf: number | null = null;

  constructor(
    private readonly service: Billing,
    private readonly idempotent: ReturnType<typeof idempotency>,
    private readonly options: PaidCallsOptions,
    private readonly start: CallStart,
  ) {}

  /**
   * The checks that follow the parameters, in the order of docs/product-rules.md §5: the
   * Idempotency-Key (422 when reused, a replay when the call already ran: ./idempotency.ts), the
   * per-key rate limit (429), then the key and the price, taken atomically with its ledger row
   * before the handler runs its query. Throws only what the database threw (a fault: 500, 503).
   */
  async pay(ask: CallAsk): Promise<Payment> {
    const { operationId, price, keyHash, sandbox, requestId, channel } = this.start;
    const { rateLimit, now } = this.options;
    let credits: Credits | undefined;
    let quota: Quota | undefined;
    if (ask.idempotencyKey !== undefined) {
      const admission = await this.idempotent.admit({
        key: ask.idempotencyKey,
        operation: operationId,
        query: canonicalQuery(ask.query, ask.otherMediaType),
        callId: this.#callId,
        keyHash,
      });
      ({ credits, quota } = admission);
      if (admission.outcome === 'refused') return admission;
      if (admission.outcome === 'replayed') {
        this.#replayOf = admission.chargeId;
        return { outcome: 'replayed', response: admission.response, credits, quota };
      }
      this.#claim = admission.claim;
      if (admission.chargeId !== null) {
        // Taken over from a request that paid and never finished: run on its charge.
        this.#chargeId = admission.chargeId;
        const paid = { credits_charged: price, credits_remaining: admission.balance };
        return { outcome: 'charged', credits: paid, quota, caller: admission.caller };
      }
    }
    let result: DebitResult;
    try {
      result = await this.service.debit({
        keyHash,
        price,
        endpoint: operationId,
        requestId,
        callId: this.#callId,
        ...(this.#claim !== null && { idempotencyKey: this.#claim.key }),
        ...(sandbox && { sandbox: true }),
        ...(channel === 'mcp' && { channel }),
        // Counted by the debit statement itself, after the key and before the cap and the balance.
        ...(rateLimit && { rateLimit: rateLimit.debitLimit }),
      });
    } catch (error) {
      // The caller is told nothing was charged; if the debit did commit, its refund makes that true.
      if (price > 0 && isOutcomeUnknown(error)) await this.service.oweUncertain(this.#callId, requestId);
      throw error;
    }
    if (result.outcome === 'unauthorized') return { outcome: 'refused', error: unauthorized(), credits, quota };
    if (rateLimit && result.window) quota = rateLimit.quota(result.window);
    // Key before rate limit, cap and balance: a refused call still proves its key and reports the balance.
    const unpaid = { credits_charged: 0, credits_remaining: result.balance };
    if (result.outcome === 'limited') {
      const error = rateLimited(rateLimit!.policy.requests, rateLimit!.policy.windowSeconds);
      return { outcome: 'refused', error, credits: unpaid, quota };
    }
    if (result.outcome === 'capped') {
      const error = dailyCapReached(price, result.dailyCap, result.spentToday, now());
      return { outcome: 'refused', error, credits: unpaid, quota };
    }
    if (result.outcome === 'insufficient')
      return { outcome: 'refused', error: insufficientCredits(price, result.balance), credits: unpaid, quota };
    this.#chargeId = result.chargeId;
    const paid = { credits_charged: result.sandbox ? 0 : price, credits_remaining: result.balance };
    return { outcome: 'charged', credits: paid, quota, caller: result.caller };
  }

  /**
   * The key's standing for a call refused for its `Accept` or its parameters before it paid (406,
   * 400): the key comes first (docs/product-rules.md §5), but whether it exists only the database
   * knows. Null: the key is not valid, and the call is a 401. Otherwise the balance (nothing
   * charged) and the rate-limit standing, read with the key in one statement.
   */
  async keyStanding(): Promise<{ credits: Credits; quota: Quota | undefined } | null> {
    const caller = await this.service.findCaller(this.start.keyHash);
    if (caller === null) return null;
    const { rateLimit } = this.options;
    return {
      credits: { credits_charged: 0, credits_remaining: caller.balance },
      quota: rateLimit ? rateLimit.standingIn(caller.window) : undefined,
    };
  }

  /**
   * The key's rate-limit standing without counting this call, for an answer to a valid key that
   * learnt none on its way; undefined when the limit is off.
   */
  async quota(): Promise<Quota | undefined> {
    return this.options.rateLimit?.standing(this.start.keyHash);
  }

  /**
   * After the answer: a charged call that failed on the server's side (5xx) is refunded (owed when
   * the database cannot take it now); the Idempotency-Key claim is settled (./idempotency.ts).
   */
  async end(answer: Answer): Promise<CallEnd> {
    const ended: CallEnd = { delivers: false };
    if (this.#chargeId !== null && answer.status >= 500) {
      const made = await this.service.refund(this.#chargeId, this.start.requestId);
      this.#refunded = true;
      ended.refund = {
        refunded: made?.refunded ?? this.start.price,
        // Owed: the balance after it cannot be read now, so no credits to tell.
        owed: made === null,
        credits: made === null ? undefined : { credits_charged: 0, credits_remaining: made.balance },
      };
    }
    if (this.#claim !== null) {
      try {
        await this.idempotent.settle(
          this.#claim,
          {
            chargeId: this.#chargeId,
            refunded: this.#refunded,
            sandbox: this.start.sandbox,
            free: this.start.price === 0,
          },
          answer,
        );
      } catch (error) {
        // The answer stands, paid or not: the claim stays "running", and a retry takes it over
        // once its run has ended or it is stale, on this call's charge (./idempotency.ts).
        ended.fault = error;
      }
    }
    ended.delivers = this.#delivered !== null;
    return ended;
  }

  /** The charge the answer delivers: this call's, unless refunded, or the one it replays. */
  get #delivered(): number | null {
    return this.#refunded ? this.#replayOf : (this.#chargeId ?? this.#replayOf);
  }

  /**
   * The answer left the process (`sent`), or could not be written: a delivered charge is marked so;
   * an undelivered one is refunded unless an Idempotency-Key holds it for a retry.
   */
  answerLeft(sent: boolean): Promise<void> {
    const charge = this.#delivered;
    if (charge === null) return Promise.resolve();
    if (sent) {
      this.service.delivered(charge);
      return Promise.resolve();
    }
    const heldByKey = this.#claim !== null || this.#replayOf !== null;
    return this.service.undelivered(charge, this.start.requestId, { heldByKey });
  }
}
