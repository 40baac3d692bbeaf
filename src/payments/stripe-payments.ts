import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import type { StripeConfig } from '../config.ts';
import type { Sql } from '../data/client.ts';
import { creditPaidCheckout, recordCheckout, reversePayment } from '../data/purchases.ts';
import type { CreditPack } from './credit-packs.ts';
import { type EventAnswer, MalformedEvent, SignatureRejected } from './events.ts';

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : (value?.id ?? null);

/**
 * Credit purchases through Stripe (docs/product-rules.md §13): Checkout Sessions for the packs on
 * the account page, and the events Stripe posts back (paid, refunded, disputed), each applied
 * exactly once whatever the retries, reorderings and concurrent deliveries.
 */
export class StripePayments {
  readonly #stripe: Stripe;
  /** Where Stripe serves its Checkout pages: the account page's forms may lead there. */
  readonly checkoutOrigin: string;

  constructor(
    private readonly sql: Sql,
    private readonly config: StripeConfig,
    readonly packs: readonly CreditPack[],
    private readonly publicUrl: () => URL,
    private readonly log: (line: string) => void = () => {},
  ) {
    const api = config.apiUrl ? new URL(config.apiUrl) : null;
    this.#stripe = new Stripe(config.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: 'advertiser-lookup-api' },
      ...(api && {
        host: api.hostname,
        port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)),
        protocol: api.protocol === 'https:' ? 'https' : 'http',
      }),
    });
    this.checkoutOrigin = api ? api.origin : 'https://checkout.stripe.com';
  }

  /** Creates the Checkout Session of one pack for the account and records it; returns where to send the buyer. */
  async startCheckout({ accountId, email, pack }: { accountId: number; email: string; pack: CreditPack }) {
    const base = this.publicUrl();
    const session = await this.#stripe.checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: pack.currency,
              unit_amount: pack.price,
              product_data: { name: `${pack.name}: ${pack.credits.toLocaleString('en-US')} credits` },
            },
          },
        ],
        client_reference_id: String(accountId),
        customer_email: email,
        metadata: { account_id: String(accountId), pack_id: pack.id, credits: String(pack.credits) },
        success_url: new URL('/account/credits?checkout=success', base).href,
        cancel_url: new URL('/account/credits?checkout=cancelled', base).href,
      },
      // The SDK's own retries reuse it, so a retried create never makes a second session.
      { idempotencyKey: randomUUID() },
    );
    if (!session.url) throw new Error(`Stripe returned Checkout Session ${session.id} without a URL`);
    await recordCheckout(this.sql, { sessionId: session.id, accountId, pack });
    return session.url;
  }

  /**
   * The event a webhook request carries, when its Stripe-Signature holds (within 5 minutes):
   * SignatureRejected when it does not, MalformedEvent when the signed body is no event.
   */
  async verifiedEvent(body: string, signature: string): Promise<Stripe.Event> {
    let event: Stripe.Event;
    try {
      event = await this.#stripe.webhooks.constructEventAsync(body, signature, this.config.webhookSecret);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new SignatureRejected(error.message);
      throw new MalformedEvent('the body is not a Stripe event in JSON');
    }
    if (typeof event?.type !== 'string' || typeof event.data?.object !== 'object' || event.data.object === null)
      throw new MalformedEvent('the event has no type or no data.object');
    return event;
  }

  async handle(event: Stripe.Event): Promise<EventAnswer> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        return this.#paid(event.data.object, event.id);
      case 'charge.refunded': {
        const charge = event.data.object;
        if (!Number.isInteger(charge.amount_refunded)) throw new MalformedEvent('the charge has no amount_refunded');
        return this.#reverse(idOf(charge.payment_intent), { amountRefunded: charge.amount_refunded }, event.id);
      }
      case 'charge.dispute.created':
        return this.#reverse(idOf(event.data.object.payment_intent), { disputed: true }, event.id);
      default:
        return {
          status: 400,
          body: {
            error: 'unsupported_event_type',
            message:
              'This endpoint handles checkout.session.completed, checkout.session.async_payment_succeeded, ' +
              `charge.refunded and charge.dispute.created, not ${event.type}.`,
          },
        };
    }
  }

  async #paid(session: Stripe.Checkout.Session, eventId: string): Promise<EventAnswer> {
    if (typeof session.id !== 'string') throw new MalformedEvent('the Checkout Session has no id');
    if (session.payment_status !== 'paid') return { status: 200, body: { received: true, outcome: 'not paid yet' } };
    // A session paid without a PaymentIntent (nothing to charge) is its own reference.
    const reference = idOf(session.payment_intent) ?? session.id;
    const credited = await creditPaidCheckout(this.sql, session.id, reference);
    if (credited.outcome === 'unknown') {
      this.log(`Stripe event ${eventId}: Checkout Session ${session.id} was not made by this service; ignored`);
      return { status: 200, body: { received: true, outcome: 'not a session of this service' } };
    }
    if (credited.outcome === 'credited')
      this.log(`Stripe payment ${reference}: ${credited.credits} credits to account ${credited.accountId}`);
    return { status: 200, body: { received: true, outcome: credited.outcome } };
  }

  async #reverse(
    paymentReference: string | null,
    change: { amountRefunded?: number; disputed?: boolean },
    eventId: string,
  ): Promise<EventAnswer> {
    if (paymentReference === null) throw new MalformedEvent('the event names no payment_intent');
    const reversal = await reversePayment(this.sql, paymentReference, change, eventId);
    if (reversal.outcome === 'not credited')
      // Stripe retries a non-2xx answer: once the payment's own event is in, this one applies.
      return {
        status: 409,
        body: {
          error: 'payment_not_credited',
          message: `No credited purchase has the payment ${paymentReference} (yet).`,
        },
      };
    if (reversal.outcome === 'reversed')
      this.log(
        `Stripe payment ${paymentReference} refunded or disputed: ${reversal.taken} credits taken back from account ` +
          `${reversal.accountId}${reversal.owed > 0 ? `, ${reversal.owed} owed` : ''}`,
      );
    return { status: 200, body: { received: true, outcome: reversal.outcome } };
  }
}
