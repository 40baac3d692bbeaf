import type { AccountHolders } from '../accounts/account-holders.ts';
import type { Sql } from '../data/client.ts';
import { clientAddress } from './client-address.ts';
import { formToken } from './csrf.ts';
import { CsrfField, Notice, Page } from './layout.tsx';
import { startSession } from './session.ts';
import { startSecondStep } from './sign-in-code.tsx';
import type { Web } from './web-env.ts';

/** Where a sign-in may send the browser next: a page of this account page only (no open redirect). */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/account(\/[A-Za-z0-9/_.-]*)?(\?[A-Za-z0-9=&_%-]*)?$/.test(next)
    ? next
    : '/account';
}

const MESSAGES = {
  refused: 'That email and password do not match an account.',
  unverified: 'Confirm your email address first: we sent you a new link.',
  disabled: 'This account is disabled. Contact the operator of the service.',
} as const;

function SignInForm(props: { token: string; next: string; email?: string; error?: string; info?: string }) {
  const { token, next, email = '', error, info } = props;
  return (
    <Page title="Sign in">
      <section class="card narrow">
        <h1>Sign in</h1>
        {info && <Notice kind="success">{info}</Notice>}
        {error && <Notice kind="error">{error}</Notice>}
        <form method="post" action="/account/sign-in">
          <CsrfField token={token} />
          <input type="hidden" name="next" value={next} />
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autocomplete="email" required value={email} />
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required />
          <button type="submit">Sign in</button>
        </form>
        <p>
          <a href="/account/forgot-password">Forgot your password?</a>
        </p>
        <p>
          New here? <a href="/account/sign-up">Create an account</a>
        </p>
      </section>
    </Page>
  );
}

const INFO: Record<string, string> = {
  reset: 'Your password is changed, and every session was signed out. Sign in with the new one.',
  verified: 'Your email address is confirmed. Sign in.',
  'signed-out': 'You are signed out.',
  'email-changed': 'Your email address is changed: sign in with the new one.',
  deleted: 'Your account is deleted. Its keys no longer work, and your personal data is erased.',
};

/** GET/POST /account/sign-in (docs/product-rules.md R12.4, R12.7, R12.8). */
export function registerSignIn(
  web: Web,
  { holders, sql, secure }: { holders: AccountHolders; sql: Sql; secure: boolean },
) {
  web.get('/sign-in', (c) => {
    if (c.get('session')) return c.redirect(safeNext(c.req.query('next')), 303);
    const info = INFO[c.req.query('done') ?? ''];
    return c.html(<SignInForm token={formToken(c, secure)} next={safeNext(c.req.query('next'))} info={info} />);
  });
  web.post('/sign-in', async (c) => {
    const body = await c.req.parseBody();
    const email = String(body.email ?? '');
    const next = safeNext(body.next);
    const result = await holders.signIn(email, String(body.password ?? ''), clientAddress(c));
    if (result.outcome === 'signed-in') {
      await startSession(c, sql, result.accountId, secure);
      return c.redirect(next, 303);
    }
    if (result.outcome === 'second-step') return startSecondStep(c, sql, { accountId: result.accountId, next, secure });
    const token = formToken(c, secure);
    if (result.outcome === 'wait') {
      const minutes = Math.ceil(result.seconds / 60);
      const wait = minutes === 1 ? 'a minute' : `${minutes} minutes`;
      c.header('Retry-After', String(result.seconds));
      return c.html(
        <SignInForm
          token={token}
          next={next}
          email={email}
          error={`Too many attempts. Try again in ${wait}, or reset your password.`}
        />,
        429,
      );
    }
    return c.html(<SignInForm token={token} next={next} email={email} error={MESSAGES[result.outcome]} />, 401);
  });
}
