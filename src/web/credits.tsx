import type { CreditPack, OperatorSettings } from '../config.ts';
import { findAccount } from '../data/accounts.ts';
import { checkoutOfAccount } from '../data/purchases.ts';
import { formatNumber } from './format.ts';
import { CsrfField, Notice, Page } from './layout.tsx';
import { SupportLink } from './operator.tsx';
import { requireSession } from './session.ts';
import type { Session, Web, WebDependencies } from './web-env.ts';

/** `$10.00`, `€45.00`: a pack's price as its buyer reads it. */
function formatPrice(pack: CreditPack): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: pack.currency.toUpperCase() }).format(
    pack.price / 100,
  );
}

/** `$0.009`: what one credit of the pack costs, to at most 4 decimals, so packs compare at a glance. */
export function formatPricePerCredit(pack: CreditPack): string {
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: pack.currency.toUpperCase(),
    minimumFractionDigits: 2,
    maximumFractionDigits: 4,
  }).format(pack.price / 100 / pack.credits);
}

type PageNotice = { kind: 'success' | 'info' | 'error'; text: string };

const CANCELLED: PageNotice = { kind: 'info', text: 'The payment was cancelled; nothing was charged.' };

/**
 * Back from Stripe Checkout: what the account's session named in the URL did, read from the
 * database; nothing when the URL names no session of this account (R13.6).
 */
async function checkoutNotice(
  sql: WebDependencies['sql'],
  accountId: number,
  checkout: string | undefined,
  sessionId: string | undefined,
): Promise<PageNotice | undefined> {
  if (checkout === 'cancelled') return CANCELLED;
  if (checkout !== 'success' || !sessionId || sessionId.length > 255) return undefined;
  const state = await checkoutOfAccount(sql, accountId, sessionId);
  if (state === null) return undefined;
  const credits = `${formatNumber(state.credits)} credits`;
  return state.credited
    ? { kind: 'success', text: `Thank you: your payment went through and ${credits} were added to your balance.` }
    : {
        kind: 'info',
        text:
          `Your payment is still being confirmed: the ${credits} are added as soon as Stripe confirms it, ` +
          'usually within seconds. Reload this page to see them.',
      };
}

function CreditsPage({
  session,
  balance,
  payments,
  operator,
  notice,
}: {
  session: Session;
  balance: number;
  payments: WebDependencies['payments'];
  operator: OperatorSettings;
  notice?: PageNotice;
}) {
  return (
    <Page title="Buy credits" email={session.email} csrfToken={session.csrfToken} current="credits">
      <h1>Buy credits</h1>
      {notice && <Notice kind={notice.kind}>{notice.text}</Notice>}
      <section class="card">
        <h2>Balance</h2>
        <p class="big" data-testid="balance">
          {formatNumber(balance)}
        </p>
        <p class="muted">Credits never expire; every key of the account spends them.</p>
      </section>
      {payments ? (
        <section class="card">
          <h2>Credit packs</h2>
          <p>You pay on Stripe's secure page; the credits are added as soon as the payment is confirmed.</p>
          <ul class="packs">
            {payments.packs.map((pack) => (
              <li class="pack">
                <form method="post" action="/account/credits/checkout">
                  <CsrfField token={session.csrfToken} />
                  <input type="hidden" name="pack" value={pack.id} />
                  <h3>{pack.name}</h3>
                  <p class="big">{formatNumber(pack.credits)}</p>
                  <p class="muted">credits for {formatPrice(pack)}</p>
                  <p class="muted" data-testid="price-per-credit">
                    {formatPricePerCredit(pack)} per credit
                  </p>
                  <button type="submit" aria-label={`Buy ${pack.name}: ${formatNumber(pack.credits)} credits`}>
                    Buy
                  </button>
                </form>
              </li>
            ))}
          </ul>
        </section>
      ) : (
        <section class="card">
          <h2>Credit packs</h2>
          <p data-testid="through-operator">
            To buy credits, write to <SupportLink operator={operator} /> with the number of credits you want; they are
            added to this account's balance once paid.
          </p>
        </section>
      )}
    </Page>
  );
}

/**
 * GET /account/credits and POST /account/credits/checkout (docs/product-rules.md §13): the packs,
 * and a Stripe Checkout Session for the one chosen; without Stripe, the page says where to write to buy them.
 */
export function registerCredits(
  web: Web,
  { sql, payments, operator }: Pick<WebDependencies, 'sql' | 'payments' | 'operator'>,
) {
  const balanceOf = async (session: Session) => (await findAccount(sql, session.accountId))?.balance ?? 0;
  web.get('/credits', requireSession, async (c) => {
    const session = c.get('session')!;
    const notice = await checkoutNotice(sql, session.accountId, c.req.query('checkout'), c.req.query('session_id'));
    return c.html(
      <CreditsPage
        session={session}
        balance={await balanceOf(session)}
        payments={payments}
        operator={operator}
        notice={notice}
      />,
    );
  });
  web.post('/credits/checkout', requireSession, async (c) => {
    const session = c.get('session')!;
    const packId = String((await c.req.parseBody()).pack ?? '');
    const pack = payments?.packs.find((candidate) => candidate.id === packId);
    if (!payments || !pack) {
      const text = payments
        ? 'There is no such pack; choose one below.'
        : `Credits are not sold on this page: write to ${operator.supportEmail} to buy them.`;
      return c.html(
        <CreditsPage
          session={session}
          balance={await balanceOf(session)}
          payments={payments}
          operator={operator}
          notice={{ kind: 'error', text }}
        />,
        400,
      );
    }
    const url = await payments.startCheckout({ accountId: session.accountId, email: session.email, pack });
    return c.redirect(url, 303);
  });
}
