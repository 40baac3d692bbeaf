import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { contentSecurityPolicyOnly } from '../http/security-headers.ts';
import { registerAssets } from './assets.ts';
import { registerAuthPages } from './auth-pages.ts';
import { csrfProtection } from './csrf.ts';
import { registerDashboardPages } from './dashboard-pages.ts';
import { registerNotFound } from './not-found.tsx';
import { withOperator } from './operator.tsx';
import { loadSession } from './session.ts';
import type { Web, WebDependencies, WebEnv } from './web-env.ts';

/** The largest form post the page accepts; its forms send a few short fields. */
const MAX_FORM_BYTES = 16 * 1024;

/**
 * The account page's Content-Security-Policy: scripts, styles, images and requests from the
 * service only, no inline script or style, forms post only to the service, no framing. Only the
 * policy is set here; the app's `securityHeaders` adds every other security header.
 */
const pageSecurityHeaders = (checkoutOrigin: string | null) =>
  contentSecurityPolicyOnly({
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    // The buy form's answer redirects to Stripe Checkout, and form-action covers that redirect.
    formAction: checkoutOrigin ? ["'self'", checkoutOrigin] : ["'self'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
  });

/**
 * The account page (docs/product-rules.md §12), server-rendered with hono/jsx and mounted under
 * /account: sign-up, sign-in and password reset (auth-pages.ts), then the signed-in pages: balance
 * and usage, keys, ledger (dashboard-pages.ts). Every form works without JavaScript.
 */
export function createAccountPages(deps: WebDependencies): Web {
  const web = new Hono<WebEnv>();
  const secure = deps.secureCookies;
  registerAssets(web);
  web.use('*', pageSecurityHeaders(deps.payments?.checkoutOrigin ?? null));
  web.use('*', bodyLimit({ maxSize: MAX_FORM_BYTES, onError: (c) => c.text('This form is too large.', 413) }));
  web.use('*', withOperator(deps.operator));
  web.use('*', loadSession(deps.sql, secure));
  web.use('*', ...csrfProtection(secure, () => deps.publicUrl().origin));
  registerAuthPages(web, { ...deps, secure });
  registerDashboardPages(web, deps);
  registerNotFound(web);
  return web;
}
