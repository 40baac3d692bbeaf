import type { AccountHolders } from '../accounts/account-holders.ts';
import { formToken } from './csrf.ts';
import { CsrfField, Notice, Page } from './layout.tsx';
import type { Web } from './web-env.ts';

/** The page of a link that is unknown, used or expired (confirmation and reset links alike). */
export function LinkUnusable() {
  return (
    <Page title="This link no longer works">
      <section class="card narrow">
        <h1>This link no longer works</h1>
        <Notice kind="error">It was used already, has expired, or was copied incompletely.</Notice>
        <p>Sign in with your email and password: if the address is not confirmed yet, we send a new link.</p>
        <p>
          <a class="button" href="/account/sign-in">
            Sign in
          </a>
        </p>
      </section>
    </Page>
  );
}

/**
 * GET /account/verify?token= shows a button; its POST confirms the address (docs/product-rules.md
 * R12.2). Mail scanners open the links of an email, so opening one changes nothing.
 */
export function registerVerifyEmail(web: Web, { holders, secure }: { holders: AccountHolders; secure: boolean }) {
  web.get('/verify', async (c) => {
    const token = c.req.query('token') ?? '';
    if (!(await holders.linkUsable(token, 'verify_email'))) return c.html(<LinkUnusable />, 410);
    return c.html(
      <Page title="Confirm your email address">
        <section class="card narrow">
          <h1>Confirm your email address</h1>
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
    const accountId = await holders.verifyEmail(String(body.token ?? ''));
    if (accountId === null) return c.html(<LinkUnusable />, 410);
    return c.redirect('/account/sign-in?done=verified', 303);
  });
}
