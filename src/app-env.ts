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
    /** Debits the operation's price (0 for free operations) and returns the credits for the body. */
    debit: () => Promise<Credits & { key_prefix: string }>;
    /** Known once the key proved valid: what this call cost and the balance after it. */
    credits: Credits | undefined;
    /** Credits given back because the call failed on the server's side. */
    creditsRefunded: number | undefined;
    /** The refund could not be made yet (the database is away); it is owed and made once it is back. */
    refundOwed: boolean | undefined;
  };
}
