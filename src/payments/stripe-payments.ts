import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import type { CreditPack, StripeConfig } from '../config.ts';
import type { Sql } from '../data/client.ts';
import { applyCheckoutEvent, recordCheckout, recordSessionPayment, reversePayment } from '../data/purchases.ts';
import { type EventAnswer, MalformedEvent, SignatureRejected } from './events.ts';

/** How far a Stripe-Signature's timestamp may be from now, either way. */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/** The `t=` of a Stripe-Signature header, in seconds since the epoch; null without one. */
function signedAt(signature: string): number | null {
  const match = /(?:^|,)\s*t=([0-9]+)\s*(?:,|$)/.exec(signature);
  return match ? Number(match[1]) : null;
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === 'string' ? value : typeof value?.id === 'string' ? value.id : null;

/** The ids an event names for a payment, in order: its PaymentIntent (expanded: and its latest charge), its charge. */
function paymentIdsOf(
  paymentIntent: string | { id: string; latest_charge?: string | { id: string } | null } | null | undefined,
  charge?: string | { id: string } | null,
): string[] {
  const latestCharge = typeof paymentIntent === 'object' ? idOf(paymentIntent?.latest_charge) : null;
  const ids = [idOf(paymentIntent), latestCharge, idOf(charge)].filter((id): id is string => id !== null);
  return [...new Set(ids)];
}

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
        // Stripe puts the session's id in place of {CHECKOUT_SESSION_ID}: the page reports that session's state.
        success_url: new URL('/account/credits?checkout=success&session_id={CHECKOUT_SESSION_ID}', base).href,
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
   * The event a webhook request carries, when its Stripe-Signature holds (signed within 5 minutes of now, either way):
   * SignatureRejected when it does not, MalformedEvent when the signed body is no event.
   */
  async verifiedEvent(body: string, signature: string): Promise<Stripe.Event> {
    let event: Stripe.Event;
    try {
      event = await this.#stripe.webhooks.constructEventAsync(
        body,
        signature,
        this.config.webhookSecret,
        SIGNATURE_TOLERANCE_SECONDS,
      );
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) throw new SignatureRejected(error.message);
      throw new MalformedEvent('the body is not a Stripe event in JSON');
    }
    // The SDK bounds only the past; a timestamp ahead of the clock would let a captured event be replayed longer.
    const at = signedAt(signature);
    if (at !== null && at > Date.now() / 1000 + SIGNATURE_TOLERANCE_SECONDS)
      throw new SignatureRejected(
        `The Stripe-Signature timestamp ${at} is more than ${SIGNATURE_TOLERANCE_SECONDS} seconds in the future; ` +
          "check the sender's clock.",
      );
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
        const ids = paymentIdsOf(charge.payment_intent, charge.id);
        return this.#reverse(ids, { amountRefunded: charge.amount_refunded }, event.id);
      }
      case 'charge.dispute.created': {
        const dispute = event.data.object;
        return this.#reverse(paymentIdsOf(dispute.payment_intent, dispute.charge), { disputed: true }, event.id);
      }
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
    // Whatever payment the event names, the session credits once (R13.2); the ids are recorded for refunds.
    const applied = await applyCheckoutEvent(this.sql, session.id, {
      paymentIds: paymentIdsOf(session.payment_intent),
      paid: session.payment_status === 'paid',
    });
    if (applied.outcome === 'unknown') {
      this.log(`Stripe event ${eventId}: Checkout Session ${session.id} was not made by this service; ignored`);
      return { status: 200, body: { received: true, outcome: 'not a session of this service' } };
    }
    if (applied.outcome === 'credited')
      this.log(
        `Stripe payment ${applied.paymentReference}: ${applied.credits} credits to account ${applied.accountId}`,
      );
    return { status: 200, body: { received: true, outcome: applied.outcome } };
  }

  /**
   * A refund or dispute whose payment no event of a session named: Stripe says which Checkout
   * Session the PaymentIntent belongs to, and it is recorded for that session (R13.3). False when
   * Stripe names none or cannot be asked now (the event is then answered 409 and retried).
   */
  async #learnSessionOf(paymentIntent: string, eventId: string): Promise<boolean> {
    if (!paymentIntent.startsWith('pi_')) return false;
    let sessionId: string | undefined;
    try {
      const sessions = await this.#stripe.checkout.sessions.list({ payment_intent: paymentIntent, limit: 1 });
      sessionId = sessions.data[0]?.id;
    } catch (error) {
      this.log(`Stripe event ${eventId}: could not ask Stripe for the session of ${paymentIntent}: ${error}`);
      return false;
    }
    if (sessionId === undefined) return false;
    await recordSessionPayment(this.sql, sessionId, paymentIntent);
    return true;
  }

  async #reverse(
    paymentIds: string[],
    change: { amountRefunded?: number; disputed?: boolean },
    eventId: string,
  ): Promise<EventAnswer> {
    if (paymentIds.length === 0) throw new MalformedEvent('the event names no payment_intent or charge');
    let reversal = await reversePayment(this.sql, paymentIds, change, eventId);
    if (reversal.outcome === 'not credited' && (await this.#learnSessionOf(paymentIds[0], eventId)))
      reversal = await reversePayment(this.sql, paymentIds, change, eventId);
    if (reversal.outcome === 'not credited')
      // Stripe retries a non-2xx answer: once the payment's own event is in, this one applies.
      return {
        status: 409,
        body: {
          error: 'payment_not_credited',
          message: `No credited purchase has the payment ${paymentIds.join(' or ')} (yet).`,
        },
      };
    if (reversal.outcome === 'reversed')
      this.log(
        `Stripe payment ${reversal.paymentReference} refunded or disputed: ${reversal.taken} credits taken back from ` +
          `account ${reversal.accountId}${reversal.owed > 0 ? `, ${reversal.owed} owed` : ''}`,
      );
    return { status: 200, body: { received: true, outcome: reversal.outcome } };
  }
}
