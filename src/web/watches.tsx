import { TEST_EVENT_LIMITS } from '../alerts/test-event.ts';
import type { WebhookPostOptions } from '../alerts/webhook-post.ts';
import { ApiError } from '../contract/errors.ts';
import { profileOf } from '../contract/response-schemas.ts';
import { type WatchAsk, watchIdParameter, watchTarget } from '../contract/watch-request.ts';
import { type TestEventListing, testEventOf } from '../data/alert-test-events.ts';
import type { Sql } from '../data/client.ts';
import {
  createWatch,
  deleteWatch,
  type WatchEventRow,
  type WatchRow,
  watchesWithRecentEvents,
} from '../data/watches.ts';
import { sendWatchTestEvent, type WatchTestOutcome } from '../watches/test-event.ts';
import { TestEventResult } from './alert-test-events.tsx';
import { formatNumber, formatTime } from './format.ts';
import { CsrfField, FORM_PROBLEM_ID, Notice, Page } from './layout.tsx';
import { requireSession } from './session.ts';
import type { Session, Web } from './web-env.ts';

/** Watches shown per dataset, and events per watch; the API lists them all, a page at a time. */
const SHOWN_WATCHES = 200;
const SHOWN_EVENTS = 5;
/** The longest target the form takes (the API's body allows no longer). */
const MAX_TARGET_LENGTH = 2048;

const SAVED: Record<string, string> = {
  created: 'The watch is created. Its news comes after every load that finds some.',
  existing: 'You already watch this; nothing changed.',
  deleted: 'The watch is deleted. It finds nothing more.',
};

/** Why a watch's test event was not sent, in the page's words (docs/product-rules.md R19.29). */
const TEST_EVENT_REFUSALS = {
  'no webhook': (
    <>
      Test events and watch news go to your webhook, and you have none: set one on the{' '}
      <a href="/account/alerts">Alerts page</a> first.
    </>
  ),
  'account limit': `You sent ${TEST_EVENT_LIMITS.perAccount} test events in the last hour: try again later.`,
  'host limit':
    'Your endpoint’s address received as many test events in the last hour as it may from this service. ' +
    'Try again later.',
} as const;

type Refusal = Exclude<Extract<WatchTestOutcome, { refused: string }>['refused'], 'watch not found'>;

type Listing = { watch: WatchRow; events: WatchEventRow[] }[];

interface WatchesPageProps {
  session: Session;
  watchLimit: number;
  live: Listing;
  sandbox: Listing;
  saved?: string;
  problem?: { message: string; kind: string; target: string; sandbox: boolean };
  /** The test event just sent, to show how the receiver answered. */
  tested?: TestEventListing;
  /** A test event refused: for which watch, and why. */
  testRefused?: { watchId: string; refusal: Refusal };
}

function WatchesPage({ session, watchLimit, live, sandbox, saved, problem, tested, testRefused }: WatchesPageProps) {
  const invalid = problem ? { 'aria-invalid': 'true', 'aria-describedby': FORM_PROBLEM_ID } : {};
  const kind = problem?.kind ?? 'domain';
  return (
    <Page title="Watches" email={session.email} csrfToken={session.csrfToken} current="watches">
      <h1>Brand watch</h1>
      {saved && <Notice kind="success">{saved}</Notice>}
      {tested && <TestEventResult event={tested} />}
      <section class="card">
        <h2>Watch a domain or an advertiser</h2>
        <p>
          A <strong>domain</strong> watch: hear when an advertiser sends ads to your domain for the first time.
        </p>
        <p>
          An <strong>advertiser</strong> watch: hear when an advertiser lands on a domain it never used before.
        </p>
        <p>
          Watches are free; up to {formatNumber(watchLimit)} per account. The API does the same:{' '}
          <code>POST /api/v1/watches</code> (see <a href="/docs">the docs</a>).
        </p>
        {problem && (
          <Notice kind="error" id={FORM_PROBLEM_ID}>
            {problem.message}
          </Notice>
        )}
        <form method="post" action="/account/watches">
          <CsrfField token={session.csrfToken} />
          <fieldset class="kinds">
            <legend>Kind</legend>
            <label class="check">
              <input type="radio" name="kind" value="domain" checked={kind === 'domain'} /> Domain
            </label>
            <label class="check">
              <input type="radio" name="kind" value="advertiser" checked={kind === 'advertiser'} /> Advertiser
            </label>
          </fieldset>
          <label for="target">
            Domain or advertiser{' '}
            <span class="hint">A domain, host or URL (acme.com); or an advertiser name, exactly as shown.</span>
          </label>
          <input
            id="target"
            name="target"
            type="text"
            required
            autocomplete="off"
            maxlength={MAX_TARGET_LENGTH}
            value={problem?.target ?? ''}
            {...invalid}
          />
          <label class="check">
            <input type="checkbox" name="sandbox" value="1" checked={problem?.sandbox ?? false} /> Sandbox watch (test
            keys see it; it watches the demo dataset, free)
          </label>
          <button type="submit">Create the watch</button>
        </form>
      </section>
      <WatchList
        title="Live watches"
        listing={live}
        session={session}
        testRefused={testRefused}
        empty="You watch nothing yet."
      />
      <WatchList
        title="Sandbox watches"
        listing={sandbox}
        session={session}
        testRefused={testRefused}
        empty="No sandbox watch: test keys create them, or tick Sandbox above."
      />
    </Page>
  );
}

function WatchList({
  title,
  listing,
  session,
  testRefused,
  empty,
}: {
  title: string;
  listing: Listing;
  session: Session;
  testRefused: WatchesPageProps['testRefused'];
  empty: string;
}) {
  return (
    <section class="card">
      <h2>{title}</h2>
      {listing.length === 0 ? (
        <p class="muted">{empty}</p>
      ) : (
        listing.map(({ watch, events }) => (
          <article class="watch" data-testid="watch">
            <h3>
              {watch.kind === 'domain' ? 'Domain ' : 'Advertiser '}
              <code>{watch.target}</code>
            </h3>
            <p class="muted">
              Since {formatTime(watch.createdAt)} · id <code>{watch.id}</code>
            </p>
            <Events events={events} kind={watch.kind} />
            {testRefused?.watchId === watch.id && (
              <Notice kind="error" id={FORM_PROBLEM_ID}>
                {TEST_EVENT_REFUSALS[testRefused.refusal]}
              </Notice>
            )}
            <div class="watch-actions">
              <form method="post" action={`/account/watches/${watch.id}/test`} class="inline">
                <CsrfField token={session.csrfToken} />
                <button
                  type="submit"
                  class="secondary"
                  aria-label={`Send a test event of the watch of ${watch.target} to your webhook`}
                >
                  Send a test event
                </button>
              </form>
              <form method="post" action={`/account/watches/${watch.id}/delete`} class="inline">
                <CsrfField token={session.csrfToken} />
                <button type="submit" class="secondary" aria-label={`Delete the watch of ${watch.target}`}>
                  Delete
                </button>
              </form>
            </div>
          </article>
        ))
      )}
    </section>
  );
}

function Events({ events, kind }: { events: WatchEventRow[]; kind: WatchRow['kind'] }) {
  if (events.length === 0) return <p class="muted">No news yet.</p>;
  return (
    <div class="table-wrap">
      <table class="stack" data-testid="watch-events">
        <caption>Recent news</caption>
        <thead>
          <tr>
            <th>Found</th>
            <th>{kind === 'domain' ? 'New advertiser' : 'Advertiser'}</th>
            <th>{kind === 'domain' ? 'Landing domain' : 'New landing domain'}</th>
            <th>First seen</th>
            <th>Footprint</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr>
              <td data-label="Found">{formatTime(event.foundAt)}</td>
              <td data-label="Advertiser">
                {event.advertiser} <span class="muted">{event.advertiserId}</span>
              </td>
              <td data-label="Landing domain">{event.landingDomain}</td>
              <td data-label="First seen">{event.firstSeen}</td>
              <td data-label="Footprint">
                {formatNumber(event.landingDomainCount)} {event.landingDomainCount === 1 ? 'domain' : 'domains'} (
                {profileOf(event.landingDomainCount).replaceAll('_', ' ')})
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * GET /account/watches and its forms (docs/product-rules.md R19.19): the account's live and
 * sandbox watches with their newest events, a form that creates one under the API's rules, and
 * per watch a delete button and a test event button (R19.29), which posts to the account's
 * webhook as the alerts page's test event does (`webhooks`: how webhooks are checked and reached).
 */
export function registerWatches(
  web: Web,
  { sql, watchLimit, webhooks = {} }: { sql: Sql; watchLimit: number; webhooks?: WebhookPostOptions },
) {
  const render = async (
    session: Session,
    rest: Pick<WatchesPageProps, 'saved' | 'problem' | 'tested' | 'testRefused'> = {},
  ) => {
    const counts = { watches: SHOWN_WATCHES, events: SHOWN_EVENTS };
    return (
      <WatchesPage
        session={session}
        watchLimit={watchLimit}
        live={await watchesWithRecentEvents(sql, { accountId: session.accountId, sandbox: false }, counts)}
        sandbox={await watchesWithRecentEvents(sql, { accountId: session.accountId, sandbox: true }, counts)}
        {...rest}
      />
    );
  };
  web.get('/watches', requireSession, async (c) => {
    const session = c.get('session')!;
    const testedId = c.req.query('tested');
    const tested = testedId ? await testEventOf(sql, session.accountId, testedId) : null;
    return c.html(await render(session, { saved: SAVED[c.req.query('saved') ?? ''], tested: tested ?? undefined }));
  });
  web.post('/watches', requireSession, async (c) => {
    const session = c.get('session')!;
    const form = await c.req.parseBody();
    const kind = String(form.kind ?? '');
    const target = String(form.target ?? '');
    const sandbox = form.sandbox === '1';
    const refuse = async (message: string) =>
      c.html(await render(session, { problem: { message, kind, target, sandbox } }), 400);
    if (kind !== 'domain' && kind !== 'advertiser') return refuse('Choose Domain or Advertiser.');
    let ask: WatchAsk;
    try {
      ask = watchTarget(kind, target);
    } catch (error) {
      if (error instanceof ApiError) return refuse(error.message);
      throw error;
    }
    const holder = { accountId: session.accountId, sandbox };
    const made = await createWatch(sql, holder, { keyId: null, ...ask, limit: watchLimit });
    if (made.outcome === 'limit_reached')
      return refuse(`You have ${formatNumber(made.limit)} watches, the most an account may hold: delete one first.`);
    return c.redirect(`/account/watches?saved=${made.outcome}`, 303);
  });
  web.post('/watches/:id/delete', requireSession, async (c) => {
    const session = c.get('session')!;
    let id: string;
    try {
      id = watchIdParameter(c.req.param('id'));
    } catch {
      return c.notFound();
    }
    // Either dataset: the page shows both, and the id names one watch.
    const deleted =
      (await deleteWatch(sql, { accountId: session.accountId, sandbox: false }, id)) ||
      (await deleteWatch(sql, { accountId: session.accountId, sandbox: true }, id));
    if (!deleted) return c.notFound();
    return c.redirect('/account/watches?saved=deleted', 303);
  });
  web.post('/watches/:id/test', requireSession, async (c) => {
    const session = c.get('session')!;
    let watchId: string;
    try {
      watchId = watchIdParameter(c.req.param('id'));
    } catch {
      return c.notFound();
    }
    // Either dataset, as for delete: the page shows both, and the id names one watch.
    const send = (sandbox: boolean) =>
      sendWatchTestEvent(sql, { accountId: session.accountId, watchId, sandbox }, { webhook: webhooks });
    let outcome = await send(false);
    if ('refused' in outcome && outcome.refused === 'watch not found') outcome = await send(true);
    if ('sent' in outcome)
      return c.redirect(`/account/watches?tested=${encodeURIComponent(outcome.sent.eventId)}`, 303);
    if (outcome.refused === 'watch not found') return c.notFound();
    const refusal = outcome.refused;
    return c.html(await render(session, { testRefused: { watchId, refusal } }), refusal === 'no webhook' ? 400 : 429);
  });
}
