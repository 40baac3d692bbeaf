import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Credits } from '../billing/credits.ts';
import type { Quota } from '../billing/rate-limit.ts';
import type { ApiError } from '../contract/errors.ts';
import type { ContractOperation } from '../contract/operations.ts';
import type { Caller, Channel } from '../data/billing.ts';

/** What the parameter rules made of a request (docs/product-rules.md §3). */
export interface Parameters {
  /**
   * The query parameters of the operation, normalized (a domain reduced to its root domain, a
   * limit to its number); an optional one that is absent is not here, or has its default.
   */
  query: Record<string, string | number>;
  /** The Idempotency-Key of a billed call, or of a call that creates (createWatch), when it sent one. */
  idempotencyKey: string | undefined;
}

export interface AppEnv {
  Variables: {
    requestId: string;
    /** The contract operation this request addresses (set for every /api path that exists). */
    operation: ContractOperation;
    /** SHA-256 of the well-formed key the caller sent; its validity is settled by the debit. */
    apiKeyHash: Buffer;
    /** The key is a test key: free calls on the sandbox's data (docs/product-rules.md §17). */
    sandbox: boolean;
    /** The media type of the answer, negotiated from `Accept` (http/content-negotiation.ts). */
    mediaType: string;
    /** The request's parameters, validated and normalized once (http/parameters.ts). */
    parameters: Parameters;
    /**
     * Why the request's `Accept` or parameters are refused (406, 400), recorded by their steps and
     * answered by the billing edge once the key's standing is known: the key comes first
     * (docs/product-rules.md §5).
     */
    refusal: ApiError | undefined;
    /** The caller's key and account, set by the billing edge once the call is paid, before the handler runs. */
    caller: Caller;
    /** Known once the key proved valid: what this call cost and the balance after it. */
    credits: Credits | undefined;
    /** The key's standing under the per-key rate limit, once this request was counted. */
    quota: Quota | undefined;
    /**
     * Credits given back because the call failed on the server's side; `owed`: not yet, the
     * database is away, and they are given back once it is back.
     */
    refund: { refunded: number; owed: boolean } | undefined;
    /** The docs page's script nonce, set by its Content-Security-Policy (hono's secureHeaders). */
    secureHeadersNonce?: string;
    /** A billing step after the answer failed (an Idempotency-Key claim not settled); the answer stands. */
    billingFault: unknown;
  };
}

/**
 * How a request came. The environment `app.fetch` is given beside the request is the HTTP
 * server's own objects for a request from outside, and `{ channel: 'mcp' }` for a tool call of the
 * MCP endpoint (http/mcp.ts), which no request from outside can set.
 */
export function channelOf(c: Context<AppEnv>): Channel {
  return (c.env as { channel?: unknown } | undefined)?.channel === 'mcp' ? 'mcp' : 'http';
}

/** The application: the contract's operations behind the HTTP edge and billing. */
export type App = OpenAPIHono<AppEnv>;
