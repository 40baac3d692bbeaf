import type { AccountHolders } from '../accounts/account-holders.ts';
import type { Sql } from '../data/client.ts';
import { formToken } from './csrf.ts';
import { CsrfField, Notice, Page } from './layout.tsx';
import { requireSession, startSession } from './session.ts';
import type { Web } from './web-env.ts';

/**
 * The page of a link that is unknown, used or expired. A reset link's page offers a new one at
 * once; a confirmation link's says that signing in sends a new one (R12.2, R12.6).
 */
export function LinkUnusable({ purpose, token }: { purpose: 'verify_email' | 'reset_password'; token: string }) {
  return (
    <Page title="This link no longer works">
      <section class="card narrow">
        <h1>This link no longer works</h1>
        <Notice kind="error">It was used already, has expired, or was copied incompletely.</Notice>
        {purpose === 'reset_password' ? (
          <>
            <p>Only the newest reset link works, once, for one hour. Ask for a new one:</p>
            <form method="post" action="/account/forgot-password">
              <CsrfField token={token} />
              <label for="email">Email</label>
              <input id="email" name="email" type="email" autocomplete="email" required />
              <button type="submit">Email me a new link</button>
            </form>
            <p>
              <a href="/account/sign-in">Back to sign in</a>
            </p>
          </>
        ) : (
          <>
            <p>
              If your address is confirmed already, sign in. If not, sign in with your email and password all the same:
              we send you a new link.
            </p>
            <p>
              <a class="button" href="/account/sign-in">
                Sign in
              </a>
            </p>
          </>
        )}
      </section>
    </Page>
  );
}

/**
 * GET /account/verify?token= shows a button; its POST confirms the address and signs the
 * customer in (docs/product-rules.md R12.2). Mail scanners open the links of an email, so opening
 * one changes nothing.
 */
export function registerVerifyEmail(
  web: Web,
  { holders, sql, secure }: { holders: AccountHolders; sql: Sql; secure: boolean },
) {
  web.get('/verify', async (c) => {
    const token = c.req.query('token') ?? '';
    if (!(await holders.linkUsable(token, 'verify_email')))
      return c.html(<LinkUnusable purpose="verify_email" token={formToken(c, secure)} />, 410);
    return c.html(
      <Page title="Confirm your email address">
        <section class="card narrow">
          <h1>Confirm your email address</h1>
          <p>Confirming signs you in to your new account.</p>
          <form method="post" action="/account/verify">
            <CsrfField token={formToken(c, secure)} />
            <input type="hidden" name="token" value={token} />
            <button type="submit">Confirm my address</button>
          </form>
        </section>
      </Page>,
    );
  });
  web.post('/verify', async (c) => {
    const body = await c.req.parseBody();
    const verified = await holders.verifyEmail(String(body.token ?? ''));
    if (verified === null) return c.html(<LinkUnusable purpose="verify_email" token={formToken(c, secure)} />, 410);
    if (!verified.signsIn) return c.redirect('/account/sign-in?done=verified', 303);
    // The link proved the address, once, and the post carried this browser's form token: a new
    // session, as a sign-in makes (R12.11).
    await startSession(c, sql, verified.accountId, secure);
    return c.redirect('/account/welcome', 303);
  });
  web.get('/welcome', requireSession, (c) => {
    const session = c.get('session')!;
    return c.html(
      <Page title="Your address is confirmed" email={session.email} csrfToken={session.csrfToken}>
        <section class="card narrow">
          <h1>Welcome</h1>
          <Notice kind="success">Your email address is confirmed, and you are signed in.</Notice>
          <p>Your first API key comes with 200 free credits.</p>
          <p class="next-steps">
            <a class="button" href="/account/keys">
              Create your first key
            </a>
            <a href="/account">Go to the overview</a>
          </p>
        </section>
      </Page>,
    );
  });
}
