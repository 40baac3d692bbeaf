import type { AccountHolders } from '../accounts/account-holders.ts';
import { MIN_PASSWORD_LENGTH } from '../accounts/passwords.ts';
import { clientAddress } from './client-address.ts';
import { formToken } from './csrf.ts';
import { CsrfField, FORM_PROBLEM_ID, Notice, Page } from './layout.tsx';
import type { Web } from './web-env.ts';

function SignUpForm(props: { token: string; email?: string; problem?: { field: string; message: string } }) {
  const { token, email = '', problem } = props;
  return (
    <Page title="Create an account">
      <section class="card narrow">
        <h1>Create an account</h1>
        <p class="muted">Your first API key comes with 200 free credits.</p>
        {problem && (
          <Notice kind="error" id={FORM_PROBLEM_ID}>
            {problem.message}
          </Notice>
        )}
        <form method="post" action="/account/sign-up">
          <CsrfField token={token} />
          <label for="email">Email</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="email"
            required
            value={email}
            aria-invalid={problem?.field === 'email' ? 'true' : undefined}
            aria-describedby={problem?.field === 'email' ? FORM_PROBLEM_ID : undefined}
          />
          <label for="password">
            Password <span class="hint">At least {MIN_PASSWORD_LENGTH} characters; a passphrase works well.</span>
          </label>
          <input
            id="password"
            name="password"
            type="password"
            autocomplete="new-password"
            required
            minlength={MIN_PASSWORD_LENGTH}
            aria-invalid={problem?.field === 'password' ? 'true' : undefined}
            aria-describedby={problem?.field === 'password' ? FORM_PROBLEM_ID : undefined}
          />
          <button type="submit">Create account</button>
        </form>
        <p>
          Already have an account? <a href="/account/sign-in">Sign in</a>
        </p>
      </section>
    </Page>
  );
}

/** GET/POST /account/sign-up (docs/product-rules.md R12.1). */
export function registerSignUp(web: Web, { holders, secure }: { holders: AccountHolders; secure: boolean }) {
  web.get('/sign-up', (c) => c.html(<SignUpForm token={formToken(c, secure)} />));
  web.post('/sign-up', async (c) => {
    const body = await c.req.parseBody();
    const email = String(body.email ?? '');
    const problem = await holders.signUp(email, String(body.password ?? ''), clientAddress(c));
    if (problem !== null && 'wait' in problem) {
      // Per client, never per address: the answer says nothing of the address (R12.9, R12.16).
      c.header('Retry-After', String(problem.wait));
      const minutes = Math.ceil(problem.wait / 60);
      const message = `Too many sign-ups from your network. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
      return c.html(
        <SignUpForm token={formToken(c, secure)} email={email} problem={{ field: 'form', message }} />,
        429,
      );
    }
    if (problem !== null)
      return c.html(<SignUpForm token={formToken(c, secure)} email={email} problem={problem} />, 400);
    return c.html(
      <Page title="Check your email">
        <section class="card narrow">
          <h1>Check your email</h1>
          <Notice kind="info">
            If <strong>{email.trim()}</strong> can be registered, a link to confirm it is on its way. Follow it to sign
            in. The link works for 24 hours.
          </Notice>
          <p>
            <a href="/account/sign-in">Go to sign in</a>
          </p>
        </section>
      </Page>,
    );
  });
}
