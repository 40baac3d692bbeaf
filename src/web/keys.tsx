import {
  type ApiKey,
  capReached,
  createApiKey,
  keyLabel,
  keyNameProblem,
  keyOf,
  keysOf,
  MAX_DAILY_CAP,
  MAX_KEY_NAME_LENGTH,
  revokeKeyOf,
  setDailyCap,
} from '../accounts/keys.ts';
import { isTestApiKey } from '../contract/api-key.ts';
import { KEY_PLACEHOLDER, mcpClientConfig } from '../contract/mcp-config.ts';
import type { Sql } from '../data/client.ts';
import { putNewKeyFlash, takeNewKeyFlash } from '../data/new-key-flashes.ts';
import { formatCredits, formatNumber, formatTime } from './format.ts';
import { CsrfField, FORM_PROBLEM_ID, Notice, Page } from './layout.tsx';
import { NEW_KEY_FLASH_SECONDS, openNewKey, sealNewKey } from './new-key-flash.ts';
import { requireSession } from './session.ts';
import type { Session, Web } from './web-env.ts';

/** The cap form's value: a whole number of credits, or empty for no cap; a string says what is wrong. */
function dailyCapOf(value: string): number | null | string {
  const text = value.replaceAll(',', '').trim();
  if (text === '') return null;
  if (!/^[0-9]{1,13}$/.test(text) || Number(text) < 1 || Number(text) > MAX_DAILY_CAP)
    return `Enter a whole number of credits from 1 to ${formatNumber(MAX_DAILY_CAP)}, or leave it empty for no cap.`;
  return Number(text);
}

function capNotice(key: ApiKey): string {
  const name = `“${keyLabel(key)}”`;
  return key.dailyCap === null
    ? `${name} has no daily cap now.`
    : `${name} may spend up to ${formatCredits(key.dailyCap)} per UTC day; ` +
        `${formatNumber(key.spentToday)} ${key.spentToday === 1 ? 'is' : 'are'} spent today.`;
}

function CapPage({
  session,
  keyListing,
  problem,
  value,
}: {
  session: Session;
  keyListing: ApiKey;
  problem?: string;
  value?: string;
}) {
  const name = keyLabel(keyListing);
  return (
    <Page title="Daily cap" email={session.email} csrfToken={session.csrfToken} current="keys">
      <section class="card narrow">
        <h1>Daily cap of “{name}”</h1>
        <p>
          The most credits <code>{keyListing.displayPrefix}…</code> may spend per UTC day, refunds deducted. A call that
          would go past it answers <code>403 daily_cap_reached</code>, free, until midnight UTC; your other keys are not
          affected. Spent today: <strong>{formatNumber(keyListing.spentToday)}</strong>{' '}
          {keyListing.spentToday === 1 ? 'credit' : 'credits'}.
        </p>
        {problem && (
          <Notice kind="error" id={FORM_PROBLEM_ID}>
            {problem}
          </Notice>
        )}
        <form method="post" action={`/account/keys/${keyListing.id}/cap`}>
          <CsrfField token={session.csrfToken} />
          <label for="daily_cap">
            Credits per day <span class="hint">Leave empty for no cap.</span>
          </label>
          <input
            id="daily_cap"
            name="daily_cap"
            type="text"
            inputmode="numeric"
            autocomplete="off"
            maxlength={17}
            value={value ?? (keyListing.dailyCap === null ? '' : String(keyListing.dailyCap))}
            aria-invalid={problem ? 'true' : undefined}
            aria-describedby={problem ? FORM_PROBLEM_ID : undefined}
          />
          <button type="submit">Save the cap</button>{' '}
          <a href="/account/keys" class="cancel">
            Cancel
          </a>
        </form>
      </section>
    </Page>
  );
}

function KeyTable({ keys }: { keys: ApiKey[] }) {
  if (keys.length === 0) return <p class="muted">No keys yet.</p>;
  return (
    <div class="table-wrap">
      <table data-testid="keys" class="stack">
        <thead>
          <tr>
            <th>Name</th>
            <th>Key</th>
            <th>Created</th>
            <th>Last used</th>
            <th>Daily cap</th>
            <th>State</th>
            <th>
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr>
              <td data-label="Name">{key.name ?? <span class="muted">(no name)</span>}</td>
              <td data-label="Key">
                <code>{key.displayPrefix}…</code>
              </td>
              <td data-label="Created" class="time">
                {formatTime(key.createdAt)}
              </td>
              <td data-label="Last used" class="time">
                {key.lastUsedAt ? formatTime(key.lastUsedAt) : <span class="muted">never</span>}
              </td>
              <td data-label="Daily cap">
                {key.dailyCap === null ? (
                  <span>
                    {formatNumber(key.spentToday)} today, <span class="muted">no cap</span>
                  </span>
                ) : capReached(key) ? (
                  <span class="at-cap">
                    {formatNumber(key.spentToday)} of {formatNumber(key.dailyCap)} today{' '}
                    <strong class="state capped">cap reached</strong>
                  </span>
                ) : (
                  <span>
                    {formatNumber(key.spentToday)} of {formatNumber(key.dailyCap)} today
                  </span>
                )}
              </td>
              <td data-label="State">
                {key.revokedAt ? <span class="state revoked">revoked</span> : <span class="state">active</span>}
              </td>
              <td>
                {key.revokedAt === null && (
                  <span class="actions">
                    <a href={`/account/keys/${key.id}/cap`} aria-label={`Daily cap of ${keyLabel(key)}`}>
                      Cap
                    </a>{' '}
                    <a href={`/account/keys/${key.id}/revoke`} aria-label={`Revoke ${keyLabel(key)}`}>
                      Revoke
                    </a>
                  </span>
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
 * How to use a key from an AI agent: the MCP client configuration with the service's `/mcp`
 * (docs/product-rules.md R21.6), beside the keys it needs; never a key itself.
 */
function McpSection({ publicUrl }: { publicUrl: URL }) {
  return (
    <section class="card" aria-labelledby="mcp-title">
      <h2 id="mcp-title">Use a key from an AI agent (MCP)</h2>
      <p>
        AI assistants that speak the Model Context Protocol call this API as tools, with the same key and at the same
        prices as your HTTP calls. Paste this into the configuration of your MCP client, with one of your keys instead
        of <code>{KEY_PLACEHOLDER}</code>. With a test key every tool call is free, on the sandbox's data.
      </p>
      <pre class="key" data-testid="mcp-config">
        {mcpClientConfig(publicUrl)}
      </pre>
    </section>
  );
}

function KeysPage(props: {
  session: Session;
  keys: ApiKey[];
  created?: { key: string; name: string; granted: number; test: boolean };
  /** The new-key page was opened again: its key is not shown twice. */
  shownAlready?: boolean;
  revoked?: string;
  capped?: string;
  problem?: string;
  name?: string;
  publicUrl: URL;
}) {
  const { session, keys, created, shownAlready, revoked, capped, problem, name = '', publicUrl } = props;
  return (
    <Page
      title="API keys"
      email={session.email}
      csrfToken={session.csrfToken}
      current="keys"
      scripts={created ? ['/account/assets/account.js'] : []}
    >
      <h1>API keys</h1>
      {created && (
        <section class="card created" aria-labelledby="created-title">
          <h2 id="created-title">Your new key “{created.name}”</h2>
          <Notice kind="info">
            Copy it now and keep it somewhere safe: <strong>this is the only time it is shown</strong>. We store only a
            fingerprint of it, so nobody can show it to you again.
          </Notice>
          <code class="key" id="new-key">
            {created.key}
          </code>
          <button type="button" data-copy="new-key" class="secondary" hidden>
            Copy the key
          </button>
          {created.granted > 0 && (
            <p>
              Your first key comes with <strong>{created.granted} free credits</strong>, now in your balance.
            </p>
          )}
          {created.test && (
            <p>
              A <strong>test key</strong>: its calls are free and answer from the sandbox's demo data (marked{' '}
              <code>X-Sandbox: true</code>), with every rule of a live key. It never reads live data.
            </p>
          )}
          <p class="muted">
            Send it in the <code>Authorization: Bearer</code> header; see the <a href="/docs">API docs</a>.
          </p>
        </section>
      )}
      {shownAlready && (
        <Notice kind="info">
          A new key is shown only once, and this page showed it already (or it waited more than five minutes). If you
          did not copy it, revoke it below and create another.
        </Notice>
      )}
      {revoked && <Notice kind="success">The key {revoked} is revoked: calls with it now answer 401.</Notice>}
      {capped && <Notice kind="success">{capped}</Notice>}
      <section class="card">
        <h2>Create a key</h2>
        {problem && (
          <Notice kind="error" id={FORM_PROBLEM_ID}>
            {problem}
          </Notice>
        )}
        <form method="post" action="/account/keys">
          <CsrfField token={session.csrfToken} />
          <label for="name">
            Name <span class="hint">What the key is for, such as “production” or “reporting script”.</span>
          </label>
          <input
            id="name"
            name="name"
            type="text"
            required
            maxlength={MAX_KEY_NAME_LENGTH}
            value={name}
            aria-invalid={problem ? 'true' : undefined}
            aria-describedby={problem ? FORM_PROBLEM_ID : undefined}
          />
          <label class="check">
            <input type="checkbox" name="test" value="on" /> Test key{' '}
            <span class="hint">Free calls on the sandbox's demo data, for building an integration.</span>
          </label>
          <button type="submit">Create key</button>
        </form>
      </section>
      <section class="card">
        <h2>Your keys</h2>
        <KeyTable keys={keys} />
      </section>
      <McpSection publicUrl={publicUrl} />
    </Page>
  );
}

/** Where a key's creation redirects: the one page view that shows its plaintext. */
const NEW_KEY_PATH = '/account/keys/new';

/**
 * GET/POST /account/keys, GET /account/keys/new, GET/POST /account/keys/:id/revoke
 * (docs/product-rules.md R12.30–R12.34, R12.54), GET/POST /account/keys/:id/cap (§14).
 * A new key's plaintext goes from its POST to the page it redirects to in a flash sealed for the
 * session, read once (R12.30): never in a URL, and a reload shows it no more instead of making
 * another key.
 */
export function registerKeys(web: Web, { sql, publicUrl }: { sql: Sql; publicUrl: () => URL }) {
  web.get('/keys', requireSession, async (c) => {
    const session = c.get('session')!;
    const revoked = c.req.query('revoked');
    const capped = c.req.query('capped');
    const keys = await keysOf(sql, session.accountId);
    const cappedKey =
      capped && /^[0-9]{1,15}$/.test(capped) ? keys.find((key) => key.id === Number(capped)) : undefined;
    return c.html(
      <KeysPage
        publicUrl={publicUrl()}
        session={session}
        keys={keys}
        revoked={revoked && /^alk_(?:test_)?[0-9A-Za-z]{8}$/.test(revoked) ? revoked : undefined}
        capped={cappedKey ? capNotice(cappedKey) : undefined}
      />,
    );
  });
  web.post('/keys', requireSession, async (c) => {
    const session = c.get('session')!;
    const form = await c.req.parseBody();
    const name = String(form.name ?? '').trim();
    const test = form.test === 'on';
    const problem = keyNameProblem(name);
    if (problem !== null) {
      const keys = await keysOf(sql, session.accountId);
      return c.html(
        <KeysPage publicUrl={publicUrl()} session={session} keys={keys} problem={problem} name={name} />,
        400,
      );
    }
    const created = await createApiKey(sql, session.accountId, { name, test });
    await putNewKeyFlash(
      sql,
      session.idHash,
      { keyId: created.id, sealed: sealNewKey(session.flashKey, created.key), granted: created.granted },
      NEW_KEY_FLASH_SECONDS,
    );
    return c.redirect(NEW_KEY_PATH, 303);
  });
  web.get('/keys/new', requireSession, async (c) => {
    const session = c.get('session')!;
    const flash = await takeNewKeyFlash(sql, session.idHash);
    const plaintext = flash && openNewKey(session.flashKey, flash.sealed);
    const keys = await keysOf(sql, session.accountId);
    const key = flash && keys.find((listed) => listed.id === flash.keyId);
    if (!flash || !plaintext || !key)
      return c.html(<KeysPage publicUrl={publicUrl()} session={session} keys={keys} shownAlready />);
    return c.html(
      <KeysPage
        publicUrl={publicUrl()}
        session={session}
        keys={keys}
        created={{
          key: plaintext,
          name: keyLabel(key),
          granted: flash.granted,
          test: isTestApiKey(plaintext),
        }}
      />,
    );
  });
  web.get('/keys/:id{[0-9]{1,15}}/revoke', requireSession, async (c) => {
    const session = c.get('session')!;
    const key = await keyOf(sql, session.accountId, Number(c.req.param('id')));
    if (key === null || key.revokedAt !== null) return c.html(<NoSuchKey session={session} />, 404);
    return c.html(
      <Page title="Revoke a key" email={session.email} csrfToken={session.csrfToken} current="keys">
        <section class="card narrow">
          <h1>Revoke “{keyLabel(key)}”?</h1>
          <p>
            Calls with <code>{key.displayPrefix}…</code> will answer <code>401</code> at once. This cannot be undone;
            your balance stays with the account.
          </p>
          <form method="post" action={`/account/keys/${key.id}/revoke`}>
            <CsrfField token={session.csrfToken} />
            <button type="submit" class="danger">
              Revoke the key
            </button>{' '}
            <a href="/account/keys" class="cancel">
              Cancel
            </a>
          </form>
        </section>
      </Page>,
    );
  });
  web.get('/keys/:id{[0-9]{1,15}}/cap', requireSession, async (c) => {
    const session = c.get('session')!;
    const key = await keyOf(sql, session.accountId, Number(c.req.param('id')));
    if (key === null || key.revokedAt !== null) return c.html(<NoSuchKey session={session} />, 404);
    return c.html(<CapPage session={session} keyListing={key} />);
  });
  web.post('/keys/:id{[0-9]{1,15}}/cap', requireSession, async (c) => {
    const session = c.get('session')!;
    const key = await keyOf(sql, session.accountId, Number(c.req.param('id')));
    if (key === null || key.revokedAt !== null) return c.html(<NoSuchKey session={session} />, 404);
    const value = String((await c.req.parseBody()).daily_cap ?? '');
    const cap = dailyCapOf(value);
    if (typeof cap === 'string')
      return c.html(<CapPage session={session} keyListing={key} problem={cap} value={value} />, 400);
    if (!(await setDailyCap(sql, session.accountId, key.id, cap))) return c.html(<NoSuchKey session={session} />, 404);
    return c.redirect(`/account/keys?capped=${key.id}`, 303);
  });
  web.post('/keys/:id{[0-9]{1,15}}/revoke', requireSession, async (c) => {
    const session = c.get('session')!;
    const key = await keyOf(sql, session.accountId, Number(c.req.param('id')));
    if (key === null || !(await revokeKeyOf(sql, session.accountId, key.id)))
      return c.html(<NoSuchKey session={session} />, 404);
    return c.redirect(`/account/keys?revoked=${key.displayPrefix}`, 303);
  });
}

function NoSuchKey({ session }: { session: Session }) {
  return (
    <Page title="No such key" email={session.email} csrfToken={session.csrfToken} current="keys">
      <section class="card narrow">
        <h1>No such key</h1>
        <p>This account has no active key with that id.</p>
        <p>
          <a href="/account/keys">Back to your keys</a>
        </p>
      </section>
    </Page>
  );
}
