import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CREDIT_PACKS } from '../../src/config.ts';
import { StripePayments } from '../../src/payments/stripe-payments.ts';
import { type AccountPageHarness, startAccountPage } from '../support/account-page.ts';
import {
  paidSession,
  SECRET_KEY,
  type StripeStandIn,
  signed,
  startStripeStandIn,
  stripeEvent,
  WEBHOOK_SECRET,
} from '../support/stripe.ts';

/** docs/product-rules.md §13: buying a pack on the account page creates a Stripe Checkout Session. */
describe('buying credits on the account page', () => {
  let standIn: StripeStandIn;
  let page: AccountPageHarness;
  let withoutStripe: AccountPageHarness;

  beforeAll(async () => {
    standIn = await startStripeStandIn();
    page = await startAccountPage({
      payments: (sql) =>
        new StripePayments(
          sql,
          { secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, apiUrl: standIn.url },
          DEFAULT_CREDIT_PACKS,
          () => new URL('https://api.example.com'),
        ),
    });
    withoutStripe = await startAccountPage();
  });
  afterAll(async () => {
    await page?.close();
    await withoutStripe?.close();
    await standIn?.close();
  });

  it(
    'the page offers the configured packs; Buy creates a Checkout ' + 'Session through the SDK and redirects to it',
    async () => {
      const browser = await page.signedIn('buyer@example.com');
      const offered = await browser.get('/account/credits');
      expect(offered.status).toBe(200);
      for (const label of ['Buy Starter: 1,000 credits', 'Buy Growth: 5,000 credits', 'Buy Scale: 25,000 credits'])
        expect(offered.text).toContain(label);
      expect(offered.text).toContain('$45.00');
      // The buy form's redirect to Checkout is allowed by the page's policy, and nothing else is.
      expect(offered.headers.get('content-security-policy')).toContain(`form-action 'self' ${standIn.url}`);

      const bought = await browser.post('/account/credits/checkout', { pack: 'growth' });
      expect(bought.status).toBe(303);
      expect(bought.headers.get('location')).toBe(`${standIn.url}/pay/cs_test_0001`);
      const [asked] = standIn.asked;
      expect(asked.authorization).toBe(`Bearer ${SECRET_KEY}`);
      expect(asked.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      const [{ id: accountId }] = await page.db.sql<{ id: number }[]>`
      SELECT account_id AS id FROM account_logins WHERE email = 'buyer@example.com'`;
      expect(Object.fromEntries(asked.form)).toMatchObject({
        mode: 'payment',
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': 'usd',
        'line_items[0][price_data][unit_amount]': '4500',
        'line_items[0][price_data][product_data][name]': 'Growth: 5,000 credits',
        client_reference_id: String(accountId),
        customer_email: 'buyer@example.com',
        'metadata[pack_id]': 'growth',
        success_url: 'https://api.example.com/account/credits?checkout=success&session_id={CHECKOUT_SESSION_ID}',
        cancel_url: 'https://api.example.com/account/credits?checkout=cancelled',
      });
      const [purchase] = await page.db.sql`
      SELECT account_id, pack_id, credits, amount, currency, credited_at FROM credit_purchases
      WHERE checkout_session_id = 'cs_test_0001'`;
      expect(purchase).toEqual({
        account_id: accountId,
        pack_id: 'growth',
        credits: 5_000,
        amount: 4_500,
        currency: 'usd',
        credited_at: null,
      });
      expect((await browser.get('/account/credits?checkout=cancelled')).text).toContain('nothing was charged');
    },
  );

  it('each pack shows its price per credit', async () => {
    const browser = await page.signedIn('per-credit@example.com');
    const offered = await browser.get('/account/credits');
    const perCredit = [...offered.text.matchAll(/data-testid="price-per-credit">([^<]*)</g)].map((match) => match[1]);
    expect(perCredit).toEqual(['$0.01 per credit', '$0.009 per credit', '$0.008 per credit']);
  });

  it(
    'back from Checkout, the page says what the session credited, ' +
      'or that it is being confirmed; otherwise nothing',
    async () => {
      const browser = await page.signedIn('returning@example.com');
      await browser.get('/account/credits');
      const bought = await browser.post('/account/credits/checkout', { pack: 'starter' });
      const sessionId = /\/pay\/(cs_test_[0-9]+)$/.exec(bought.headers.get('location') ?? '')![1];
      const back = `/account/credits?checkout=success&session_id=${sessionId}`;
      const confirming = await browser.get(back);
      expect(confirming.text).toContain('Your payment is still being confirmed: the 1,000 credits are added');
      expect(confirming.text).not.toContain('Thank you');
      const event = stripeEvent('checkout.session.completed', paidSession(sessionId, `pi_for_${sessionId}`));
      const delivered = await page.app.request('/webhooks/stripe', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signed(event) },
        body: event,
      });
      expect(delivered.status).toBe(200);
      const credited = await browser.get(back);
      expect(credited.text).toContain(
        'Thank you: your payment went through and 1,000 credits were added to your balance.',
      );
      // No session, an unknown one, another account's: no word of a payment.
      const other = await page.signedIn('someone-else@example.com');
      for (const [who, path] of [
        [browser, '/account/credits?checkout=success'],
        [browser, '/account/credits?checkout=success&session_id=cs_test_never_made'],
        [other, back],
      ] as const) {
        const shown = await who.get(path);
        expect(shown.status, path).toBe(200);
        expect(shown.text, path).not.toMatch(/Thank you|being confirmed|credits were added/);
      }
    },
  );

  it(
    'the Overview offers Add credits where packs are sold, ' + 'and says where to write to buy them otherwise',
    async () => {
      const buyer = await page.signedIn('overview-buyer@example.com');
      const card = (html: string) => /data-testid="buy-credits">([\s\S]*?)<\/section>/.exec(html)![1];
      const withStripe = card((await buyer.get('/account')).text);
      expect(withStripe).toContain('<a class="button" href="/account/credits">Add credits</a>');
      expect(withStripe).toContain('Packs from 1,000 credits');
      const other = await withoutStripe.signedIn('overview-no-stripe@example.com');
      const without = card((await other.get('/account')).text);
      expect(without).toContain('To buy credits, write to <a href="mailto:support@localhost.localdomain">');
      expect(without).not.toContain('Add credits');
      for (const text of [withStripe, without]) expect(text).not.toMatch(/on its way|the operator/);
    },
  );

  it('an unknown pack is refused with 400 and no session', async () => {
    const browser = await page.signedIn('picky@example.com');
    await browser.get('/account/credits');
    const before = standIn.asked.length;
    const refused = await browser.post('/account/credits/checkout', { pack: 'platinum' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('There is no such pack');
    expect(standIn.asked.length).toBe(before);
  });

  it('without Stripe configured, the page says where to write to buy credits and offers no form', async () => {
    const browser = await withoutStripe.signedIn('operator-sold@example.com');
    const shown = await browser.get('/account/credits');
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('To buy credits, write to <a href="mailto:support@localhost.localdomain">');
    expect(shown.text).not.toContain('/account/credits/checkout');
    expect(shown.headers.get('content-security-policy')).toContain("form-action 'self';");
    expect((await browser.post('/account/credits/checkout', { pack: 'starter' })).status).toBe(400);
    expect((await withoutStripe.app.request('/webhooks/stripe', { method: 'POST', body: '{}' })).status).toBe(404);
  });
});
