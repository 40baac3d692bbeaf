import type { Context } from 'hono';
import type { AccountSettings, ChangeRefusal } from '../accounts/account-settings.ts';
import { MIN_PASSWORD_LENGTH } from '../accounts/passwords.ts';
import type { TwoFactor, TwoFactorView } from '../accounts/two-factor.ts';
import { clientAddress } from './client-address.ts';
import { formToken } from './csrf.ts';
import { CsrfField, FORM_PROBLEM_ID, Notice, Page } from './layout.tsx';
import { deleteSessionCookie, requireSession } from './session.ts';
import type { Session, Web, WebEnv } from './web-env.ts';

/** The settings' forms; a problem is shown in the form it belongs to. */
type SettingsForm = 'password' | 'email' | 'delete' | 'two-factor';

interface Problem {
  form: SettingsForm;
  field: string;
  message: string;
}

const DONE: Record<string, string> = {
  password: 'Your password is changed. Every other browser signed in to this account was signed out.',
  email:
    'Check the new address: a link to confirm it is on its way (it works for 24 hours). Until it is followed, ' +
    'you sign in with the current one, which we told about the change.',
  'email-changed': 'Your email address is changed: sign in with the new one from now on.',
  'two-factor-off': 'Two-factor sign-in is off: your password alone signs you in.',
};

/** A labelled input whose problem, if any, is announced with it. */
function Field(props: {
  id: string;
  name: string;
  label: string;
  hint?: string;
  type: string;
  autocomplete: string;
  problem?: Problem;
  minlength?: number;
}) {
  const wrong = props.problem?.field === props.name;
  return (
    <>
      <label for={props.id}>
        {props.label} {props.hint && <span class="hint">{props.hint}</span>}
      </label>
      <input
        id={props.id}
        name={props.name}
        type={props.type}
        autocomplete={props.autocomplete}
        required
        minlength={props.minlength}
        aria-invalid={wrong ? 'true' : undefined}
        aria-describedby={wrong ? FORM_PROBLEM_ID : undefined}
      />
    </>
  );
}

/** The current password every change asks for (R12.17), one field per form. */
function CurrentPassword({ form, problem }: { form: SettingsForm; problem?: Problem }) {
  return (
    <Field
      id={`${form}-current`}
      name="current"
      label="Current password"
      type="password"
      autocomplete="current-password"
      problem={problem}
    />
  );
}

function FormProblem({ form, problem }: { form: SettingsForm; problem?: Problem }) {
  if (problem?.form !== form) return null;
  return (
    <Notice kind="error" id={FORM_PROBLEM_ID}>
      {problem.message}
    </Notice>
  );
}

interface SettingsPageProps {
  session: Session;
  twoFactor: TwoFactorView;
  done?: string;
  problem?: Problem;
  /** The recovery codes just made: shown on this answer only. */
  recoveryCodes?: string[];
}

function SettingsPage({ session, twoFactor, done, problem, recoveryCodes }: SettingsPageProps) {
  const of = (form: SettingsForm) => (problem?.form === form ? problem : undefined);
  return (
    <Page title="Settings" email={session.email} csrfToken={session.csrfToken} current="settings">
      <h1>Settings</h1>
      {done && <Notice kind="success">{done}</Notice>}
      <section class="card" aria-labelledby="password-heading">
        <h2 id="password-heading">Password</h2>
        <FormProblem form="password" problem={problem} />
        <form method="post" action="/account/settings/password">
          <CsrfField token={session.csrfToken} />
          <CurrentPassword form="password" problem={of('password')} />
          <Field
            id="password-new"
            name="password"
            label="New password"
            hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}
            type="password"
            autocomplete="new-password"
            minlength={MIN_PASSWORD_LENGTH}
            problem={of('password')}
          />
          <button type="submit">Change the password</button>
        </form>
        <p class="muted">Every other browser signed in to this account is signed out when you change it.</p>
      </section>
      <section class="card" aria-labelledby="email-heading">
        <h2 id="email-heading">Email address</h2>
        <p>
          You sign in as <strong>{session.email}</strong>, where alerts and emails about the account go.
        </p>
        <FormProblem form="email" problem={problem} />
        <form method="post" action="/account/settings/email">
          <CsrfField token={session.csrfToken} />
          <Field
            id="email-new"
            name="email"
            label="New email address"
            type="email"
            autocomplete="email"
            problem={of('email')}
          />
          <CurrentPassword form="email" problem={of('email')} />
          <button type="submit">Send a confirmation link</button>
        </form>
        <p class="muted">The change applies when you follow the link sent to the new address.</p>
      </section>
      <section class="card" aria-labelledby="two-factor-heading">
        <h2 id="two-factor-heading">Two-factor sign-in</h2>
        <FormProblem form="two-factor" problem={problem} />
        {recoveryCodes && (
          <>
            <Notice kind="success">
              Two-factor sign-in is on. Keep these recovery codes somewhere safe: each signs you in once without your
              app, and this is the only time they are shown.
            </Notice>
            <ol class="recovery-codes" data-testid="recovery-codes">
              {recoveryCodes.map((code) => (
                <li>
                  <code>{code}</code>
                </li>
              ))}
            </ol>
          </>
        )}
        {twoFactor.state === 'off' && (
          <>
            <p>Off. With it on, signing in asks for a code from an authenticator app after your password.</p>
            <form method="post" action="/account/settings/two-factor/setup">
              <CsrfField token={session.csrfToken} />
              <button type="submit">Set up two-factor sign-in</button>
            </form>
          </>
        )}
        {twoFactor.state === 'setting-up' && (
          <>
            <p>
              Scan the code with your authenticator app, or type the key below into it (or open the link on the device
              that has the app), then enter the code it shows to turn two-factor sign-in on.
            </p>
            <img
              class="qr-code"
              src={twoFactor.qrCode}
              width={200}
              height={200}
              alt="QR code of the otpauth link below, for an authenticator app to scan"
            />
            <p>
              Key: <code data-testid="totp-secret">{twoFactor.secret}</code>
            </p>
            <p class="wrap">
              <a href={twoFactor.uri} data-testid="totp-uri">
                {twoFactor.uri}
              </a>
            </p>
            <form method="post" action="/account/settings/two-factor/confirm">
              <CsrfField token={session.csrfToken} />
              <Field
                id="two-factor-code"
                name="code"
                label="Code from the app"
                type="text"
                autocomplete="one-time-code"
                problem={of('two-factor')}
              />
              <CurrentPassword form="two-factor" problem={of('two-factor')} />
              <button type="submit">Turn on two-factor sign-in</button>
            </form>
          </>
        )}
        {twoFactor.state === 'on' && (
          <>
            {!recoveryCodes && (
              <p>
                On: signing in asks for a code from your app after your password. {twoFactor.recoveryCodesLeft} of 10
                recovery codes are unused.
              </p>
            )}
            <form method="post" action="/account/settings/two-factor/disable">
              <CsrfField token={session.csrfToken} />
              <CurrentPassword form="two-factor" problem={of('two-factor')} />
              <button type="submit" class="secondary">
                Turn off two-factor sign-in
              </button>
            </form>
          </>
        )}
      </section>
      <section class="card" aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete the account</h2>
        <p>
          Deleting revokes every key at once, signs every browser out and erases your email address, password,
          two-factor secret, webhook and key names. Credits left in the balance are lost. The ledger of what was bought
          and spent is kept, tied to no one, as accounting requires. This cannot be undone.
        </p>
        <FormProblem form="delete" problem={problem} />
        <form method="post" action="/account/settings/delete">
          <CsrfField token={session.csrfToken} />
          <CurrentPassword form="delete" problem={of('delete')} />
          <label class="check">
            <input
              name="confirmation"
              type="checkbox"
              value="yes"
              required
              aria-invalid={of('delete')?.field === 'confirmation' ? 'true' : undefined}
              aria-describedby={of('delete')?.field === 'confirmation' ? FORM_PROBLEM_ID : undefined}
            />
            I understand: delete my account and everything in it for good.
          </label>
          <button type="submit" class="danger">
            Delete my account
          </button>
        </form>
      </section>
    </Page>
  );
}

/** How a refused change answers: the page with the problem in its form, or 429 to wait. */
function refusalOf(form: SettingsForm, refusal: ChangeRefusal): { problem: Problem; status: 400 | 429; wait?: number } {
  if ('wait' in refusal) {
    const minutes = Math.ceil(refusal.wait / 60);
    const message = `Too many wrong passwords. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
    return { problem: { form, field: 'current', message }, status: 429, wait: refusal.wait };
  }
  return { problem: { form, field: refusal.field, message: refusal.message }, status: 400 };
}

/** GET /account/settings and its forms (docs/product-rules.md R12.17 and on). */
export function registerSettings(
  web: Web,
  { settings, twoFactor, secure }: { settings: AccountSettings; twoFactor: TwoFactor; secure: boolean },
) {
  const page = async (
    c: Context<WebEnv>,
    props: Omit<SettingsPageProps, 'session' | 'twoFactor'>,
    status: 200 | 400 | 401 | 429 = 200,
  ) => {
    const session = c.get('session')!;
    const view = await twoFactor.view(session.accountId, session.email);
    return c.html(<SettingsPage session={session} twoFactor={view} {...props} />, status);
  };
  web.get('/settings', requireSession, (c) => page(c, { done: DONE[c.req.query('done') ?? ''] }));
  web.post('/settings/two-factor/setup', requireSession, async (c) => {
    await twoFactor.startSetup(c.get('session')!.accountId);
    return c.redirect('/account/settings#two-factor-heading', 303);
  });
  web.post('/settings/two-factor/confirm', requireSession, async (c) => {
    const session = c.get('session')!;
    const body = await c.req.parseBody();
    const enabled = await settings.enableTwoFactor(
      { accountId: session.accountId, sessionIdHash: session.idHash, client: clientAddress(c) },
      session.email,
      String(body.current ?? ''),
      String(body.code ?? ''),
    );
    if ('recoveryCodes' in enabled) return page(c, { recoveryCodes: enabled.recoveryCodes });
    const { problem, status, wait } = refusalOf('two-factor', enabled);
    if (wait !== undefined) c.header('Retry-After', String(wait));
    return page(c, { problem }, status);
  });
  web.post('/settings/two-factor/disable', requireSession, async (c) => {
    const session = c.get('session')!;
    const body = await c.req.parseBody();
    const refused = await settings.disableTwoFactor(
      { accountId: session.accountId, sessionIdHash: session.idHash, client: clientAddress(c) },
      String(body.current ?? ''),
    );
    if (refused === null) return c.redirect('/account/settings?done=two-factor-off', 303);
    const { problem, status, wait } = refusalOf('two-factor', refused);
    if (wait !== undefined) c.header('Retry-After', String(wait));
    return page(c, { problem }, status);
  });
  web.post('/settings/password', requireSession, async (c) => {
    const session = c.get('session')!;
    const body = await c.req.parseBody();
    const refused = await settings.changePassword(
      { accountId: session.accountId, sessionIdHash: session.idHash, client: clientAddress(c) },
      String(body.current ?? ''),
      String(body.password ?? ''),
    );
    if (refused === null) return c.redirect('/account/settings?done=password', 303);
    const { problem, status, wait } = refusalOf('password', refused);
    if (wait !== undefined) c.header('Retry-After', String(wait));
    return page(c, { problem }, status);
  });
  web.post('/settings/email', requireSession, async (c) => {
    const session = c.get('session')!;
    const body = await c.req.parseBody();
    const refused = await settings.requestEmailChange(
      { accountId: session.accountId, sessionIdHash: session.idHash, client: clientAddress(c) },
      String(body.current ?? ''),
      String(body.email ?? ''),
    );
    if (refused === null) return c.redirect('/account/settings?done=email', 303);
    const { problem, status, wait } = refusalOf('email', refused);
    if (wait !== undefined) c.header('Retry-After', String(wait));
    return page(c, { problem }, status);
  });
  web.post('/settings/delete', requireSession, async (c) => {
    const session = c.get('session')!;
    const body = await c.req.parseBody();
    const refused = await settings.deleteAccount(
      { accountId: session.accountId, sessionIdHash: session.idHash, client: clientAddress(c) },
      String(body.current ?? ''),
      body.confirmation === 'yes',
    );
    if (refused === null) {
      deleteSessionCookie(c, secure);
      return c.redirect('/account/sign-in?done=deleted', 303);
    }
    const { problem, status, wait } = refusalOf('delete', refused);
    if (wait !== undefined) c.header('Retry-After', String(wait));
    return page(c, { problem }, status);
  });
  // The link to the new address: opening it shows a button (mail scanners open links); its post
  // applies the change, in whichever browser it is followed.
  web.get('/confirm-email', async (c) => {
    const token = c.req.query('token') ?? '';
    if (!(await settings.emailChangeLinkUsable(token))) return c.html(<ChangeLinkUnusable />, 410);
    return c.html(
      <Page title="Confirm your new email address">
        <section class="card narrow">
          <h1>Confirm your new email address</h1>
          <form method="post" action="/account/confirm-email">
            <CsrfField token={formToken(c, secure)} />
            <input type="hidden" name="token" value={token} />
            <button type="submit">Use this address</button>
          </form>
        </section>
      </Page>,
    );
  });
  web.post('/confirm-email', async (c) => {
    const body = await c.req.parseBody();
    const result = await settings.confirmEmailChange(String(body.token ?? ''));
    if (result === 'link-unusable') return c.html(<ChangeLinkUnusable />, 410);
    if (result === 'address-taken')
      return c.html(
        <Page title="This address is taken">
          <section class="card narrow">
            <h1>This address is taken</h1>
            <Notice kind="error">Another account signs in with this address now, so yours stays as it was.</Notice>
            <p>
              <a href="/account/settings">Back to the settings</a>
            </p>
          </section>
        </Page>,
        409,
      );
    const signedIn = c.get('session')?.accountId === result.accountId;
    return c.redirect(signedIn ? '/account/settings?done=email-changed' : '/account/sign-in?done=email-changed', 303);
  });
}

function ChangeLinkUnusable() {
  return (
    <Page title="This link no longer works">
      <section class="card narrow">
        <h1>This link no longer works</h1>
        <Notice kind="error">
          It was used already, has expired, was replaced by a newer one, or was copied incompletely.
        </Notice>
        <p>
          Your address is as it was. To change it, sign in and ask again from the{' '}
          <a href="/account/settings">settings</a>.
        </p>
      </section>
    </Page>
  );
}
