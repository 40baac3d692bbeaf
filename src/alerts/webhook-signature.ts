import { createHmac, randomBytes } from 'node:crypto';

/** The header that carries an alert post's signature (docs/billing.md, "Verifying a webhook"). */
export const SIGNATURE_HEADER = 'Alk-Signature';

/** A new signing secret for an account's webhook: 32 random bytes, shown on its page. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed with the secret>`: the timestamp is
 * signed with the body, so a receiver that refuses old timestamps cannot be replayed to.
 */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const timestamp = Math.floor(at.getTime() / 1000);
  const signature = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${signature}`;
}
