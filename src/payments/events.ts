/**
 * What the Stripe webhook and the payments service say to each other, in a module of its own so
 * that the webhook route (always mounted code) does not load the Stripe SDK (16 MB of memory)
 * when no Stripe key is configured.
 */

/** What the webhook answers Stripe: a status and a JSON body. */
export interface EventAnswer {
  status: 200 | 400 | 409;
  body: { received: true; outcome: string } | { error: string; message: string };
}

/** The Stripe-Signature does not sign the body with the endpoint's secret, or is too old. */
export class SignatureRejected extends Error {}

/** An event whose signature holds but whose content is not what its type promises. */
export class MalformedEvent extends Error {}
