import { Page } from './layout.tsx';
import type { Web } from './web-env.ts';

/**
 * Any other path under /account (docs/product-rules.md R12.50): a page of the account page, in its
 * language and shell, with a way back, answered 404; registered last, after every real page.
 */
export function registerNotFound(web: Web) {
  web.all('*', (c) => {
    const session = c.get('session');
    return c.html(
      <Page title="Page not found" email={session?.email} csrfToken={session?.csrfToken}>
        <section class="card narrow">
          <h1>Page not found</h1>
          <p>There is no page at this address. The link may be mistyped, or the page may have moved.</p>
          <p>
            {session ? (
              <a href="/account">Back to your account</a>
            ) : (
              <>
                <a href="/account/sign-in">Sign in</a> or <a href="/account/sign-up">create an account</a>
              </>
            )}
            {' · '}
            <a href="/docs">API docs</a>
          </p>
        </section>
      </Page>,
      404,
    );
  });
}
