import { createHash, randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { AccountHolders } from '../accounts/account-holders.ts';
import type { Sql } from '../data/client.ts';
import { challengeOf, endChallenge, insertChallenge } from '../data/two-factor.ts';
import { clientAddress } from './client-address.ts';
import { formToken } from './csrf.ts';
import { CsrfField, FORM_PROBLEM_ID, Notice, Page } from './layout.tsx';
import { startSession } from './session.ts';
import type { Web, WebEnv } from './web-env.ts';

/** How long the code may take after the password. */
const CHALLENGE_SECONDS = 5 * 60;

/** The cookie of a sign-in between its steps; over HTTPS `__Host-` prefixed, like the session's. */
function challengeCookieName(secure: boolean): string {
  return secure ? '__Host-alk_sign_in' : 'alk_sign_in';
}

const hashOf = (id: string) => createHash('sha256').update(id, 'utf8').digest();

/**
 * The password was right and the account asks for a code (R12.20): no session yet, only a
 * five-minute challenge under a cookie of its own, and the browser goes to the code's page.
 */
export async function startSecondStep(
  c: Context<WebEnv>,
  sql: Sql,
  { accountId, next, secure }: { accountId: number; next: string; secure: boolean },
): Promise<Response> {
  const id = randomBytes(32).toString('base64url');
  await insertChallenge(sql, { idHash: hashOf(id), accountId, next });
  setCookie(c, challengeCookieName(secure), id, {
    path: '/',
    httpOnly: true,
    secure,
    sameSite: 'Lax',
    maxAge: CHALLENGE_SECONDS,
  });
  return c.redirect('/account/sign-in/code', 303);
}

function CodeForm({ token, error }: { token: string; error?: string }) {
  return (
    <Page title="Enter your sign-in code">
      <section class="card narrow">
        <h1>Enter your sign-in code</h1>
        {error && (
          <Notice kind="error" id={FORM_PROBLEM_ID}>
            {error}
          </Notice>
        )}
        <form method="post" action="/account/sign-in/code">
          <CsrfField token={token} />
          <label for="code">
            Code <span class="hint">The 6 digits your authenticator app shows, or one of your recovery codes.</span>
          </label>
          <input
            id="code"
            name="code"
            type="text"
            inputmode="text"
            autocomplete="one-time-code"
            required
            maxlength={32}
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={error ? FORM_PROBLEM_ID : undefined}
          />
          <button type="submit">Sign in</button>
        </form>
        <p>
          <a href="/account/sign-in">Start again</a>
        </p>
      </section>
    </Page>
  );
}

/** GET/POST /account/sign-in/code: the second step of a sign-in with two-factor on (R12.20). */
export function registerSignInCode(
  web: Web,
  { holders, sql, secure }: { holders: AccountHolders; sql: Sql; secure: boolean },
) {
  const challengeOfRequest = async (c: Context<WebEnv>) => {
    const id = getCookie(c, challengeCookieName(secure));
    if (id === undefined || !/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
    const challenge = await challengeOf(sql, hashOf(id));
    return challenge ? { ...challenge, idHash: hashOf(id) } : null;
  };
  web.get('/sign-in/code', async (c) => {
    if ((await challengeOfRequest(c)) === null) return c.redirect('/account/sign-in', 303);
    return c.html(<CodeForm token={formToken(c, secure)} />);
  });
  web.post('/sign-in/code', async (c) => {
    const challenge = await challengeOfRequest(c);
    if (challenge === null) return c.redirect('/account/sign-in', 303);
    const body = await c.req.parseBody();
    const result = await holders.secondStep(challenge, String(body.code ?? ''), clientAddress(c));
    if (result === 'right') {
      await endChallenge(sql, challenge.idHash);
      deleteCookie(c, challengeCookieName(secure), { path: '/', secure, httpOnly: true, sameSite: 'Lax' });
      await startSession(c, sql, challenge.accountId, secure);
      return c.redirect(challenge.next, 303);
    }
    const token = formToken(c, secure);
    if (result === 'wrong')
      return c.html(<CodeForm token={token} error="That code is not right, or was used already." />, 401);
    const minutes = Math.ceil(result.wait / 60);
    c.header('Retry-After', String(result.wait));
    return c.html(
      <CodeForm
        token={token}
        error={`Too many attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`}
      />,
      429,
    );
  });
}
