import type { AccountHolders } from '../accounts/account-holders.ts';
import { MIN_PASSWORD_LENGTH } from '../accounts/passwords.ts';
import { clientAddress } from './client-address.ts';
import { formToken } from './csrf.ts';
import { CsrfField, FORM_PROBLEM_ID, Notice, Page } from './layout.tsx';
import { LinkUnusable } from './verify-email.tsx';
import type { Web } from './web-env.ts';

function ForgotForm({ token, error }: { token: string; error?: string }) {
  return (
    <Page title="Reset your password">
      <section class="card narrow">
        <h1>Reset your password</h1>
        {error && <Notice kind="error">{error}</Notice>}
        <form method="post" action="/account/forgot-password">
          <CsrfField token={token} />
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autocomplete="email" required />
          <button type="submit">Email me a link</button>
        </form>
        <p>
          <a href="/account/sign-in">Back to sign in</a>
        </p>
      </section>
    </Page>
  );
}

function NewPasswordForm({ token, link, error }: { token: string; link: string; error?: string }) {
  const describedBy = error ? FORM_PROBLEM_ID : undefined;
  return (
    <Page title="Choose a new password">
      <section class="card narrow">
        <h1>Choose a new password</h1>
        {error && (
          <Notice kind="error" id={FORM_PROBLEM_ID}>
            {error}
          </Notice>
        )}
        <form method="post" action="/account/reset-password">
          <CsrfField token={token} />
          <input type="hidden" name="token" value={link} />
          <label for="password">
            New password <span class="hint">At least {MIN_PASSWORD_LENGTH} characters.</span>
          </label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="new-password"
            required
            minlength={MIN_PASSWORD_LENGTH}
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={describedBy}
          />
          <button type="submit">Set the new password</button>
        </form>
        <p class="muted">Every browser signed in to this account is signed out when you set it.</p>
      </section>
    </Page>
  );
}

/** GET/POST /account/forgot-password, GET/POST /account/reset-password?token= (docs/product-rules.md R12.6). */
export function registerPasswordReset(web: Web, { holders, secure }: { holders: AccountHolders; secure: boolean }) {
  web.get('/forgot-password', (c) => c.html(<ForgotForm token={formToken(c, secure)} />));
  web.post('/forgot-password', async (c) => {
    const body = await c.req.parseBody();
    const wait = await holders.requestReset(String(body.email ?? ''), clientAddress(c));
    if (wait > 0) {
      c.header('Retry-After', String(wait));
      const minutes = Math.ceil(wait / 60);
      return c.html(
        <ForgotForm
          token={formToken(c, secure)}
          error={`Too many requests. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`}
        />,
        429,
      );
    }
    return c.html(
      <Page title="Check your email">
        <section class="card narrow">
          <h1>Check your email</h1>
          <Notice kind="info">
            If an account has this address, a link to reset its password is on its way. It works for one hour.
          </Notice>
          <p>
            <a href="/account/sign-in">Back to sign in</a>
          </p>
        </section>
      </Page>,
    );
  });
  web.get('/reset-password', async (c) => {
    const link = c.req.query('token') ?? '';
    if (!(await holders.linkUsable(link, 'reset_password')))
      return c.html(<LinkUnusable purpose="reset_password" token={formToken(c, secure)} />, 410);
    return c.html(<NewPasswordForm token={formToken(c, secure)} link={link} />);
  });
  web.post('/reset-password', async (c) => {
    const body = await c.req.parseBody();
    const link = String(body.token ?? '');
    const result = await holders.resetPassword(link, String(body.password ?? ''));
    if (result === 'link-unusable')
      return c.html(<LinkUnusable purpose="reset_password" token={formToken(c, secure)} />, 410);
    if (result !== null)
      return c.html(<NewPasswordForm token={formToken(c, secure)} link={link} error={result.message} />, 400);
    return c.redirect('/account/sign-in?done=reset', 303);
  });
}
