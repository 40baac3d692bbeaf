import { createHash, randomBytes } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { createMiddleware } from 'hono/factory';
import type { Sql } from '../data/client.ts';
import { endSession, insertSession, touchSession } from '../data/sessions.ts';
import { flashKeyOf } from './new-key-flash.ts';
import type { WebEnv } from './web-env.ts';

/**
 * Session lifetimes of NIST SP 800-63B's AAL2 (docs/product-rules.md §12): the page spends the
 * account's money (keys) and will buy credits, so a session ends after 30 minutes unused and 12
 * hours after its sign-in, whatever its use.
 */
export const SESSION_IDLE_SECONDS = 30 * 60;
export const SESSION_ABSOLUTE_SECONDS = 12 * 60 * 60;

/** Where a signed-out browser is sent when it opens a page that needs a session. */
export const SIGN_IN_PATH = '/account/sign-in';

/**
 * The cookie's name. Over HTTPS the `__Host-` prefix makes the browser refuse it unless it is
 * `Secure`, has `Path=/` and no `Domain`, so no sub-domain or plain-HTTP page can plant one.
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-alk_session' : 'alk_session';
}

export function hashSessionId(id: string): Buffer {
  return createHash('sha256').update(id, 'utf8').digest();
}

/** Loads the session of the request's cookie, if it is live, into `c.get('session')`. */
export function loadSession(sql: Sql, secure: boolean): MiddlewareHandler<WebEnv> {
  const name = sessionCookieName(secure);
  return createMiddleware<WebEnv>(async (c, next) => {
    const id = getCookie(c, name);
    c.set('session', null);
    if (id !== undefined && /^[A-Za-z0-9_-]{43}$/.test(id)) {
      const idHash = hashSessionId(id);
      const row = await touchSession(sql, idHash, SESSION_IDLE_SECONDS);
      if (row)
        c.set('session', {
          accountId: row.accountId,
          email: row.email,
          csrfToken: row.csrfToken,
          idHash,
          flashKey: flashKeyOf(id),
        });
    }
    await next();
  });
}

/** Pages of a signed-in account holder: a signed-out browser goes to the sign-in page first. */
export const requireSession = createMiddleware<WebEnv>(async (c, next) => {
  if (c.get('session') === null) {
    const back = c.req.method === 'GET' ? `?next=${encodeURIComponent(c.req.path)}` : '';
    return c.redirect(`${SIGN_IN_PATH}${back}`, 303);
  }
  await next();
});

/**
 * Signs the account in: a new session id every time (an id planted before the sign-in is never
 * promoted), stored hashed, with its own form token, in an `HttpOnly`, `SameSite=Lax` cookie.
 */
export async function startSession(c: Context<WebEnv>, sql: Sql, accountId: number, secure: boolean): Promise<void> {
  const id = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_ABSOLUTE_SECONDS * 1000);
  await insertSession(sql, {
    idHash: hashSessionId(id),
    accountId,
    csrfToken: randomBytes(32).toString('base64url'),
    expiresAt,
  });
  setCookie(c, sessionCookieName(secure), id, {
    path: '/',
    httpOnly: true,
    secure,
    sameSite: 'Lax',
    maxAge: SESSION_ABSOLUTE_SECONDS,
  });
}

/** Signs this browser out: the session ends in the database and the cookie is cleared. */
export async function stopSession(c: Context<WebEnv>, sql: Sql, secure: boolean): Promise<void> {
  const session = c.get('session');
  if (session) await endSession(sql, session.idHash);
  deleteSessionCookie(c, secure);
}

/** Clears the session cookie (its session has ended in the database already). */
export function deleteSessionCookie(c: Context<WebEnv>, secure: boolean): void {
  deleteCookie(c, sessionCookieName(secure), { path: '/', secure, httpOnly: true, sameSite: 'Lax' });
}
