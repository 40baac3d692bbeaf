import { createMiddleware } from 'hono/factory';
import { NONCE, secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from '../app-env.ts';

/**
 * hono's secure headers as the service uses them. Strict-Transport-Security is left to the TLS
 * terminator in front of the service (the service itself speaks plain HTTP, and only the
 * deployment knows whether its sub-domains all use HTTPS).
 */
const BASE = { strictTransportSecurity: false } as const;

const everyResponse = secureHeaders({
  ...BASE,
  // A JSON or text answer opened in a browser may run, load or frame nothing.
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  // A route with a policy of its own (the docs page) keeps it.
  overwrite: false,
});

/**
 * On every response: `X-Content-Type-Options: nosniff` and hono's other secure headers, a
 * Content-Security-Policy, and `Cache-Control: no-store` unless the route allows caching itself
 * (only the docs' script bundle does): no cache may keep a charged answer, a balance, or the docs
 * page, whose script nonce must be new for every response.
 */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await everyResponse(c, async () => {
    await next();
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
  });
});

/**
 * The reference docs page (Scalar): scripts only from the service, plus the page's inline start-up
 * script, which carries this response's nonce (`secureHeadersNonce`; contract-documents.ts puts it
 * on the tag). Styles may be inline: Scalar sets styles at run time. Requests ("Try it", the
 * contract) go to the service only; images and fonts may also be data: or blob: URLs that Scalar
 * builds itself. Nothing may come from anywhere else, so the page also works offline.
 */
export const docsPageSecurityHeaders = secureHeaders({
  ...BASE,
  contentSecurityPolicy: {
    defaultSrc: ["'self'"],
    // No 'unsafe-eval': the bundle's zod probes for it once, then validates without compiling.
    scriptSrc: ["'self'", NONCE],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    workerSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
});
