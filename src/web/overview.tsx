import { keysOf } from '../accounts/keys.ts';
import { usageByDay } from '../accounts/usage.ts';
import type { CreditPack } from '../config.ts';
import { findAccount } from '../data/accounts.ts';
import { formatNumber } from './format.ts';
import { CsrfField, Page } from './layout.tsx';
import { LowBalanceWarning } from './low-balance-warning.tsx';
import { SupportLink } from './operator.tsx';
import { requireSession } from './session.ts';
import { UsageKeyFilter } from './usage-key-filter.tsx';
import { OperationsTable } from './usage-operations.tsx';
import { daysEnding, PERIODS, type Period, usageSeries } from './usage-period.ts';
import { UsageStart } from './usage-start.tsx';
import type { Web, WebDependencies } from './web-env.ts';

/** The fewest credits a pack sells. */
const smallestPack = (packs: readonly CreditPack[]) => Math.min(...packs.map((pack) => pack.credits));

/** JSON for a `<script type="application/json">` block: nothing in it can end the block. */
function jsonBlock(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * GET /account: the balance, how to add credits (R13.7), and the usage of the last 30 or 90 days
 * (docs/product-rules.md R12.36, R12.51, R12.53).
 */
export function registerOverview(
  web: Web,
  { sql, now, payments, operator }: Pick<WebDependencies, 'sql' | 'now' | 'payments' | 'operator'>,
) {
  web.get('/', requireSession, async (c) => {
    const session = c.get('session')!;
    const period: Period = c.req.query('days') === '90' ? 90 : 30;
    const days = daysEnding(now(), period);
    const [account, keyList] = await Promise.all([findAccount(sql, session.accountId), keysOf(sql, session.accountId)]);
    const keyParam = c.req.query('key');
    const selectedKey = keyList.find((key) => String(key.id) === keyParam);
    const rows = await usageByDay(sql, session.accountId, days[0], days[days.length - 1], selectedKey?.id);
    const keys = keyList.filter((key) => key.revokedAt === null).length;
    const balance = account?.balance ?? 0;
    const usage = usageSeries(rows, days);
    const keyQuery = selectedKey ? `&key=${selectedKey.id}` : '';
    return c.html(
      <Page
        title="Overview"
        email={session.email}
        csrfToken={session.csrfToken}
        current="overview"
        scripts={['/account/assets/uPlot.iife.min.js', '/account/assets/account.js']}
        styles={['/account/assets/uPlot.min.css']}
      >
        <h1>Overview</h1>
        <LowBalanceWarning sql={sql} accountId={session.accountId} />
        <div class="stats">
          <section class="card">
            <h2 class="label">Balance</h2>
            <p class="big" data-testid="balance">
              {formatNumber(balance)}
            </p>
            <p class="muted">credits, shared by all your keys</p>
          </section>
          <section class="card">
            <h2 class="label">Last {period} days</h2>
            <p class="big" data-testid="period-credits">
              {formatNumber(usage.total.credits)}
            </p>
            <p class="muted">
              credits spent on {formatNumber(usage.total.calls)} billed call{usage.total.calls === 1 ? '' : 's'}
              {usage.total.refundedCalls > 0 && `, ${formatNumber(usage.total.refundedCalls)} of them refunded`}
            </p>
          </section>
          <section class="card" data-testid="buy-credits">
            <h2 class="label">Buying credits</h2>
            {payments ? (
              <>
                <p class="muted">Packs from {formatNumber(smallestPack(payments.packs))} credits, paid on Stripe.</p>
                <a class="button" href="/account/credits">
                  Add credits
                </a>
              </>
            ) : (
              <p class="muted">
                To buy credits, write to <SupportLink operator={operator} />.
              </p>
            )}
          </section>
        </div>
        {keys === 0 && (
          <p class="notice info">
            You have no active API key. <a href="/account/keys">Create one</a> to start calling the API.
          </p>
        )}

        <section class="card">
          <div class="section-head">
            <h2>Usage per day (UTC)</h2>
            <nav aria-label="Period" class="tabs">
              {PERIODS.map((days) => (
                <a href={`/account?days=${days}${keyQuery}`} aria-current={days === period ? 'page' : undefined}>
                  {days} days
                </a>
              ))}
            </nav>
          </div>
          <UsageKeyFilter keys={keyList} period={period} selected={selectedKey} />
          {usage.total.calls === 0 ? (
            <UsageStart keys={keyList} period={period} selectedKey={selectedKey} origin={new URL(c.req.url).origin} />
          ) : (
            <div
              id="usage-chart"
              class="chart"
              role="img"
              aria-label={`Credits and calls per day, last ${period} days${selectedKey ? ', one key' : ''}`}
            />
          )}
          <script type="application/json" id="usage-data" dangerouslySetInnerHTML={{ __html: jsonBlock(usage) }} />
          <h3>Per operation</h3>
          <OperationsTable usage={usage} />
          <p class="muted">
            Prices come from the API's contract; a call the service fails is refunded. Free: your balance, usage and
            ledger.
          </p>
          <details>
            <summary>Every day as a table</summary>
            <div class="table-wrap">
              <table data-testid="usage-days">
                <thead>
                  <tr>
                    <th>Day</th>
                    <th class="number">Calls</th>
                    <th class="number">Credits</th>
                  </tr>
                </thead>
                <tbody>
                  {usage.days.map((day, i) => (
                    <tr>
                      <td>{day}</td>
                      <td class="number">{formatNumber(usage.calls[i])}</td>
                      <td class="number">{formatNumber(usage.credits[i])}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
          <p class="muted">
            Programs read the same numbers from <code>GET /api/v1/account/usage</code> (free).
          </p>
        </section>

        <section class="card">
          <h2>Sessions</h2>
          <p class="muted">
            Signed in somewhere you no longer use? End every session of this account, this one included.
          </p>
          <form method="post" action="/account/sign-out-everywhere">
            <CsrfField token={session.csrfToken} />
            <button type="submit" class="secondary">
              Sign out everywhere
            </button>
          </form>
        </section>
      </Page>,
    );
  });
}
