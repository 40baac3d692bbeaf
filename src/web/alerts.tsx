import { checkReceiver } from '../alerts/receiver-addresses.ts';
import { sendTestEvent, TEST_EVENT_LIMITS } from '../alerts/test-event.ts';
import type { WebhookPostOptions } from '../alerts/webhook-post.ts';
import { newWebhookSecret } from '../alerts/webhook-signature.ts';
import { type TestEventListing, testEventsOf } from '../data/alert-test-events.ts';
import {
  type AlertSettings,
  alertSettingsOf,
  type DeliveryListing,
  deliveriesOf,
  removeAlertWebhook,
  setAlertWebhook,
  setLowBalanceThreshold,
} from '../data/alerts.ts';
import type { Sql } from '../data/client.ts';
import { TestEventList, TestEventResult } from './alert-test-events.tsx';
import { formatNumber, formatTime } from './format.ts';
import { CsrfField, FORM_PROBLEM_ID, Notice, Page } from './layout.tsx';
import { LowBalanceNotice } from './low-balance-warning.tsx';
import { requireSession } from './session.ts';
import type { Session, Web } from './web-env.ts';

/** The largest threshold the form takes. */
const MAX_THRESHOLD = 1_000_000_000_000;
/** The longest webhook URL (the table's CHECK). */
const MAX_WEBHOOK_URL_LENGTH = 2048;

const SAVED: Record<string, string> = {
  threshold: 'The alert threshold is saved.',
  'threshold-alerted':
    'The alert threshold is saved. Your balance is already below it, so an alert is sent now ' +
    '(by email, and to your webhook if you have one).',
  'threshold-below':
    'The alert threshold is saved. Your balance is already below it, and an alert was already sent for this ' +
    'low balance: the next one comes after credits bring the balance back to the threshold and it falls again.',
  webhook: 'The webhook is saved. Alerts are posted to it, signed with the secret below.',
  'webhook-unresolved':
    'The webhook is saved. Its host name does not resolve now, so alerts cannot reach it until it does; ' +
    'send a test event once it is set up.',
  removed: 'The webhook is removed; alerts go by email only.',
};

const TEST_EVENT_REFUSALS = {
  'no webhook': 'Save a webhook first: test events go to it.',
  'account limit': `You sent ${TEST_EVENT_LIMITS.perAccount} test events in the last hour: try again later.`,
  'host limit':
    'Your endpoint’s address received as many test events in the last hour as it may from this service. ' +
    'Try again later.',
} as const;

function thresholdOf(value: string): number | null | string {
  const text = value.replaceAll(',', '').trim();
  if (text === '') return null;
  if (!/^[0-9]{1,13}$/.test(text) || Number(text) < 1 || Number(text) > MAX_THRESHOLD)
    return `Enter a whole number of credits from 1 to ${formatNumber(MAX_THRESHOLD)}, or leave it empty for no alert.`;
  return Number(text);
}

function webhookUrlOf(value: string): string | { problem: string } {
  const text = value.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: 'Enter a full URL, such as https://example.com/hooks/balance.' };
  }
  if (url.protocol !== 'https:') return { problem: 'The webhook must be an https:// URL.' };
  if (url.username || url.password) return { problem: 'Leave user name and password out of the URL.' };
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH)
    return { problem: `Use a URL of at most ${MAX_WEBHOOK_URL_LENGTH} characters.` };
  return url.href;
}

interface AlertsPageProps {
  session: Session;
  settings: AlertSettings;
  deliveries: DeliveryListing[];
  testEvents: TestEventListing[];
  saved?: string;
  /** The button was used: the newest test event's result is shown. */
  tested?: boolean;
  problem?: { field: 'threshold' | 'url' | 'test'; message: string; value: string };
}

function AlertsPage({ session, settings, deliveries, testEvents, saved, tested, problem }: AlertsPageProps) {
  const problemOf = (field: 'threshold' | 'url' | 'test') =>
    problem?.field === field ? (
      <Notice kind="error" id={FORM_PROBLEM_ID}>
        {problem.message}
      </Notice>
    ) : null;
  const invalid = (field: 'threshold' | 'url') =>
    problem?.field === field ? { 'aria-invalid': 'true', 'aria-describedby': FORM_PROBLEM_ID } : {};
  return (
    <Page title="Alerts" email={session.email} csrfToken={session.csrfToken} current="alerts">
      <h1>Low-balance alerts</h1>
      {saved && <Notice kind="success">{saved}</Notice>}
      {tested && <TestEventResult event={testEvents[0]} />}
      <LowBalanceNotice balance={settings.balance} threshold={settings.threshold} />
      <section class="card">
        <h2>Threshold</h2>
        <p>
          When a call takes your balance below this many credits, we email <strong>{session.email}</strong> once (and
          post to your webhook, if you add one). Buying credits above it arms the alert again.
        </p>
        {problemOf('threshold')}
        <form method="post" action="/account/alerts/threshold">
          <CsrfField token={session.csrfToken} />
          <label for="threshold">
            Alert below <span class="hint">Credits; leave empty for no alert.</span>
          </label>
          <input
            id="threshold"
            name="threshold"
            type="text"
            inputmode="numeric"
            autocomplete="off"
            maxlength={17}
            value={problem?.field === 'threshold' ? problem.value : (settings.threshold?.toString() ?? '')}
            {...invalid('threshold')}
          />
          <button type="submit">Save the threshold</button>
        </form>
      </section>
      <section class="card">
        <h2>Webhook</h2>
        <p>
          An HTTPS endpoint of yours, at a public address, that receives each alert as a JSON <code>POST</code>, signed
          in the <code>Alk-Signature</code> header (see <a href="/docs">the docs</a>, “Low-balance alerts”). Failed
          posts are retried for about an hour.
        </p>
        {settings.webhook && (
          <dl class="facts">
            <dt>Endpoint</dt>
            <dd>
              <code>{settings.webhook.url}</code>
            </dd>
            <dt>Signing secret</dt>
            <dd>
              <code class="key">{settings.webhook.secret}</code>
            </dd>
          </dl>
        )}
        {problemOf('url')}
        <form method="post" action="/account/alerts/webhook">
          <CsrfField token={session.csrfToken} />
          <label for="url">
            Endpoint URL <span class="hint">Saving a URL makes a new signing secret.</span>
          </label>
          <input
            id="url"
            name="url"
            type="url"
            required
            maxlength={MAX_WEBHOOK_URL_LENGTH}
            placeholder="https://example.com/hooks/balance"
            value={problem?.field === 'url' ? problem.value : (settings.webhook?.url ?? '')}
            {...invalid('url')}
          />
          <button type="submit">Save the webhook</button>
        </form>
        {settings.webhook && (
          <form method="post" action="/account/alerts/webhook/remove" class="inline">
            <CsrfField token={session.csrfToken} />
            <button type="submit" class="secondary">
              Remove the webhook
            </button>
          </form>
        )}
        {!settings.webhook && problemOf('test')}
        {settings.webhook && (
          <>
            <h3>Test events</h3>
            <p>
              Post a signed sample alert to your endpoint now, to see that it arrives and verifies: a{' '}
              <code>balance.low</code> event with <code>"test": true</code> and your balance and threshold of now. Skip
              events with <code>"test": true</code> where you act on alerts. At most {TEST_EVENT_LIMITS.perAccount} an
              hour.
            </p>
            {problemOf('test')}
            <form method="post" action="/account/alerts/webhook/test" class="inline">
              <CsrfField token={session.csrfToken} />
              <button type="submit" class="secondary">
                Send a test event
              </button>
            </form>
            <TestEventList events={testEvents} />
          </>
        )}
      </section>
      <section class="card">
        <h2>Deliveries</h2>
        <Deliveries deliveries={deliveries} />
      </section>
    </Page>
  );
}

function Deliveries({ deliveries }: { deliveries: DeliveryListing[] }) {
  if (deliveries.length === 0) return <p class="muted">No alert was sent yet.</p>;
  return (
    <div class="table-wrap">
      <table data-testid="deliveries" class="stack">
        <thead>
          <tr>
            <th>Alert</th>
            <th>Balance</th>
            <th>To</th>
            <th>State</th>
            <th>Attempts</th>
            <th>Last attempt</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((delivery) => (
            <tr>
              <td data-label="Alert">{formatTime(delivery.alertedAt)}</td>
              <td data-label="Balance">
                {formatNumber(delivery.balance)} (below {formatNumber(delivery.threshold)})
              </td>
              <td data-label="To">
                {delivery.channel === 'email' ? 'Email ' : 'Webhook '}
                <code>{delivery.target}</code>
              </td>
              <td data-label="State">
                <span class={delivery.state === 'delivered' ? 'state' : 'state revoked'}>{delivery.state}</span>
              </td>
              <td data-label="Attempts">{delivery.attempts}</td>
              <td data-label="Last attempt">
                {delivery.lastAttemptAt ? formatTime(delivery.lastAttemptAt) : <span class="muted">none yet</span>}
                {delivery.lastStatus !== null && <span> · HTTP {delivery.lastStatus}</span>}
                {delivery.lastError && delivery.state !== 'delivered' && (
                  <span class="muted"> · {delivery.lastError}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * GET /account/alerts and its forms (docs/product-rules.md §14): the low-balance threshold, the
 * webhook and its secret, and every delivery with its attempts.
 */
export function registerAlerts(web: Web, { sql, webhooks = {} }: { sql: Sql; webhooks?: WebhookPostOptions }) {
  const render = async (
    session: Session,
    rest: Omit<AlertsPageProps, 'session' | 'settings' | 'deliveries' | 'testEvents'> = {},
  ) => (
    <AlertsPage
      session={session}
      settings={await alertSettingsOf(sql, session.accountId)}
      deliveries={await deliveriesOf(sql, session.accountId)}
      testEvents={await testEventsOf(sql, session.accountId)}
      {...rest}
    />
  );
  web.get('/alerts', requireSession, async (c) => {
    const saved = SAVED[c.req.query('saved') ?? ''];
    return c.html(await render(c.get('session')!, { saved, tested: c.req.query('tested') === '1' }));
  });
  web.post('/alerts/threshold', requireSession, async (c) => {
    const session = c.get('session')!;
    const value = String((await c.req.parseBody()).threshold ?? '');
    const threshold = thresholdOf(value);
    if (typeof threshold === 'string')
      return c.html(await render(session, { problem: { field: 'threshold', message: threshold, value } }), 400);
    const { balance, alerted } = await setLowBalanceThreshold(sql, session.accountId, threshold);
    const below = threshold !== null && balance < threshold;
    return c.redirect(
      `/account/alerts?saved=${alerted ? 'threshold-alerted' : below ? 'threshold-below' : 'threshold'}`,
      303,
    );
  });
  web.post('/alerts/webhook', requireSession, async (c) => {
    const session = c.get('session')!;
    const value = String((await c.req.parseBody()).url ?? '');
    const url = webhookUrlOf(value);
    if (typeof url !== 'string')
      return c.html(await render(session, { problem: { field: 'url', message: url.problem, value } }), 400);
    const check = await checkReceiver(new URL(url), webhooks);
    if ('refused' in check) {
      const resolvedFrom = check.byName ? ` (${new URL(url).hostname} resolves to it)` : '';
      const message = `Alerts are posted to public addresses only: ${check.refused}${resolvedFrom}.`;
      return c.html(await render(session, { problem: { field: 'url', message, value } }), 400);
    }
    await setAlertWebhook(sql, session.accountId, url, newWebhookSecret());
    return c.redirect(`/account/alerts?saved=${'unresolved' in check ? 'webhook-unresolved' : 'webhook'}`, 303);
  });
  web.post('/alerts/webhook/test', requireSession, async (c) => {
    const session = c.get('session')!;
    const outcome = await sendTestEvent(sql, session.accountId, { webhook: webhooks });
    if ('sent' in outcome) return c.redirect('/account/alerts?tested=1', 303);
    const message = TEST_EVENT_REFUSALS[outcome.refused];
    return c.html(
      await render(session, { problem: { field: 'test', message, value: '' } }),
      outcome.refused === 'no webhook' ? 400 : 429,
    );
  });
  web.post('/alerts/webhook/remove', requireSession, async (c) => {
    await removeAlertWebhook(sql, c.get('session')!.accountId);
    return c.redirect('/account/alerts?saved=removed', 303);
  });
}
