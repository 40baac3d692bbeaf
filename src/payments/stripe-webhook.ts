import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MalformedEvent, SignatureRejected } from './events.ts';
import type { StripePayments } from './stripe-payments.ts';

/** Stripe's events are a few kilobytes; anything far larger is not one of them. */
const MAX_EVENT_BYTES = 1024 * 1024;

/**
 * POST /webhooks/stripe: the events Stripe sends about payments. Outside /api: no API key, no
 * credits; the Stripe-Signature header (HMAC of the raw body, within 5 minutes) is the only
 * credential. Every refusal is a 4xx with a JSON reason, and credits nothing.
 */
export function createStripeWebhooks(payments: Pick<StripePayments, 'verifiedEvent' | 'handle'>): Hono {
  const webhooks = new Hono();
  webhooks.post(
    '/stripe',
    bodyLimit({
      maxSize: MAX_EVENT_BYTES,
      onError: (c) => c.json({ error: 'payload_too_large', message: 'A Stripe event is at most 1 MiB.' }, 413),
    }),
    async (c) => {
      const signature = c.req.header('stripe-signature');
      if (!signature)
        return c.json({ error: 'missing_signature', message: 'The Stripe-Signature header is required.' }, 400);
      const body = await c.req.text();
      try {
        const answer = await payments.handle(await payments.verifiedEvent(body, signature));
        return c.json(answer.body, answer.status);
      } catch (error) {
        if (error instanceof SignatureRejected)
          return c.json({ error: 'invalid_signature', message: error.message }, 400);
        if (error instanceof MalformedEvent)
          return c.json({ error: 'malformed_event', message: `The event is malformed: ${error.message}.` }, 400);
        throw error;
      }
    },
  );
  return webhooks;
}
