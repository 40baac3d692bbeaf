import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export const WEBHOOK_SECRET = 'whsec_test_standin_secret';
export const SECRET_KEY = 'sk_test_standin';

/** What the SDK asked of the stand-in: one Checkout Session creation. */
export interface SessionAsked {
  form: URLSearchParams;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

/**
 * A local HTTP server standing in for Stripe's API and its Checkout page. The service's SDK
 * (STRIPE_API_URL) creates sessions here; the stand-in records what was asked and answers a
 * session whose `url` is its own checkout page. Paying there posts a signed
 * `checkout.session.completed` to the service's webhook, as Stripe would, and redirects to the
 * session's success URL.
 */
export interface StripeStandIn {
  url: string;
  asked: SessionAsked[];
  /** The Checkout Session of each PaymentIntent, as Stripe lists it (`GET /v1/checkout/sessions?payment_intent=`). */
  sessionOfPayment: Map<string, string>;
  /** Where paying posts its event: the service's `/webhooks/stripe`. */
  webhookUrl: string;
  close(): Promise<void>;
}

const sdk = new Stripe(SECRET_KEY);

/** A signed Stripe-Signature header for `payload`, as Stripe makes it. */
export function signed(payload: string, secret = WEBHOOK_SECRET, timestamp?: number): string {
  return sdk.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp !== undefined && { timestamp }) });
}

/** A Stripe event of `type` whose data.object is `object`. */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  id = `evt_${crypto.randomUUID().replaceAll('-', '')}`,
) {
  return JSON.stringify({
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
}

export function paidSession(id: string, paymentIntent: string | null, paymentStatus = 'paid') {
  return {
    id,
    object: 'checkout.session',
    payment_intent: paymentIntent,
    payment_status: paymentStatus,
    mode: 'payment',
  };
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const asked: SessionAsked[] = [];
  const sessions = new Map<string, { successUrl: string; paymentIntent: string }>();
  let next = 0;
  const sessionOfPayment = new Map<string, string>();
  const standIn: StripeStandIn = { url: '', asked, sessionOfPayment, webhookUrl: '', close: async () => {} };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(request.url ?? '/', standIn.url);
      if (request.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const form = new URLSearchParams(body);
        asked.push({
          form,
          idempotencyKey: request.headers['idempotency-key'] as string | undefined,
          authorization: request.headers.authorization,
        });
        next += 1;
        const id = `cs_test_${String(next).padStart(4, '0')}`;
        sessions.set(id, {
          successUrl: form.get('success_url')!,
          paymentIntent: `pi_test_${String(next).padStart(4, '0')}`,
        });
        sessionOfPayment.set(`pi_test_${String(next).padStart(4, '0')}`, id);
        response.writeHead(200, { 'Content-Type': 'application/json', 'Request-Id': `req_${next}` });
        response.end(
          JSON.stringify({
            id,
            object: 'checkout.session',
            mode: 'payment',
            payment_status: 'unpaid',
            url: `${standIn.url}/pay/${id}`,
            client_reference_id: form.get('client_reference_id'),
          }),
        );
        return;
      }
      if (request.method === 'GET' && url.pathname === '/v1/checkout/sessions') {
        const sessionId = sessionOfPayment.get(url.searchParams.get('payment_intent') ?? '');
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end(
          JSON.stringify({
            object: 'list',
            url: '/v1/checkout/sessions',
            has_more: false,
            data: sessionId ? [{ id: sessionId, object: 'checkout.session', mode: 'payment' }] : [],
          }),
        );
        return;
      }
      const pay = /^\/pay\/(cs_test_[0-9]+)$/.exec(url.pathname);
      const session = pay ? sessions.get(pay[1]) : undefined;
      if (pay && session && request.method === 'GET') {
        response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        response.end(
          `<!doctype html><title>Stand-in checkout</title><h1>Pay for ${pay[1]}</h1>` +
            `<form method="post"><button type="submit">Pay</button></form>`,
        );
        return;
      }
      if (pay && session && request.method === 'POST') {
        const payload = stripeEvent('checkout.session.completed', paidSession(pay[1], session.paymentIntent));
        const delivered = await fetch(standIn.webhookUrl, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signed(payload) },
          body: payload,
        });
        if (!delivered.ok) {
          response.writeHead(502).end(`the webhook answered ${delivered.status}`);
          return;
        }
        // As Stripe does: the success URL gets the session's id in place of {CHECKOUT_SESSION_ID}.
        response.writeHead(303, { Location: session.successUrl.replace('{CHECKOUT_SESSION_ID}', pay[1]) }).end();
        return;
      }
      response.writeHead(404, { 'Content-Type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `no stand-in for ${request.method} ${url.pathname}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return standIn;
}
