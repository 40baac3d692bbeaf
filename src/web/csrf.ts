import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { csrf } from 'hono/csrf';
import { createMiddleware } from 'hono/factory';
import type { WebEnv } from './web-env.ts';

/** The hidden form field that carries the form token. */
export const CSRF_FIELD = 'csrf_token';

/** A signed-out browser's form token (sign-in, sign-up, password reset forms), in a cookie of its own. */
function formCookieName(secure: boolean): string {
  return secure ? '__Host-alk_form' : 'alk_form';
}

/**
 * The form token a page puts in its forms: the session's own when signed in; otherwise one kept in
 * a cookie of the browser (made here when it has none), which the post must echo.
 */
export function formToken(c: Context<WebEnv>, secure: boolean): string {
  const session = c.get('session');
  if (session) return session.csrfToken;
  const name = formCookieName(secure);
  const existing = getCookie(c, name);
  if (existing !== undefined && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  setCookie(c, name, token, { path: '/', httpOnly: true, secure, sameSite: 'Lax' });
  return token;
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Every form post of the account page (docs/product-rules.md R12.13): first hono's `csrf` (the
 * browser's Origin must be the service's own: the one the request was made to, or `publicOrigin`,
 * what customers reach behind a TLS terminator that forwards plain HTTP), then the form token: a
 * post whose `csrf_token` is not the session's (signed in) or the browser's form cookie (signed
 * out) is refused with 403 and does nothing. Two checks, because an Origin header can be missing
 * behind some proxies and a token alone does not stop a page that could read it.
 */
export function csrfProtection(secure: boolean, publicOrigin: () => string) {
  const origin = csrf({
    origin: (sent, c) => sent === new URL(c.req.url).origin || sent === publicOrigin(),
  });
  const token = createMiddleware<WebEnv>(async (c, next) => {
    if (c.req.method !== 'POST') return next();
    const body = await c.req.parseBody();
    const sent = body[CSRF_FIELD];
    const session = c.get('session');
    const expected = session ? session.csrfToken : getCookie(c, formCookieName(secure));
    if (typeof sent !== 'string' || expected === undefined || !sameToken(sent, expected)) {
      return c.text('This form expired or did not come from this site. Go back, reload the page and try again.', 403);
    }
    await next();
  });
  return [origin, token] as const;
}
