import type { Quota } from './middleware/rate-limit.ts';
import type { ContractOperation } from './spec.ts';

/** What a debit tells the response: the price paid and the balance left. */
export interface Credits {
  credits_charged: number;
  credits_remaining: number;
}

export interface AppEnv {
  Variables: {
    requestId: string;
    /** The contract operation this request addresses (set for every /api path that exists). */
    operation: ContractOperation;
    /** SHA-256 of the well-formed key the caller sent; its validity is settled by the debit. */
    apiKeyHash: Buffer;
    /**
     * Debits the operation's price (0 for free operations) and returns the credits for the body.
     * `query` is the request's parameters as the handler normalized them: with an
     * Idempotency-Key, a retry replays only when it asks the same query.
     */
    debit: (query?: Record<string, string>) => Promise<Credits & { key_prefix: string }>;
    /** Known once the key proved valid: what this call cost and the balance after it. */
    credits: Credits | undefined;
    /** The key's standing under the per-key rate limit, once this request was counted. */
    quota: Quota | undefined;
    /** Credits given back because the call failed on the server's side. */
    creditsRefunded: number | undefined;
    /** The docs page's script nonce, set by its Content-Security-Policy (hono's secureHeaders). */
    secureHeadersNonce?: string;
    /** The refund could not be made yet (the database is away); it is owed and made once it is back. */
    refundOwed: boolean | undefined;
  };
}
