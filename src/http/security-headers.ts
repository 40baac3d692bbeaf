import { createMiddleware } from 'hono/factory';
import { NONCE, secureHeaders } from 'hono/secure-headers';
import { nodeResponse } from './answer-headers.ts';
import type { AppEnv } from './app-env.ts';

type ContentSecurityPolicy = NonNullable<Parameters<typeof secureHeaders>[0]>['contentSecurityPolicy'];

/**
 * The security headers of every answer, stated once: the app adds them to each of its responses
 * (`securityHeaders`), and the HTTP server sends them on the refusals it answers before the app
 * sees a request (src/http/server.ts). They are hono's secure headers with a Content-Security-Policy
 * that lets a JSON or text answer opened in a browser run, load or frame nothing, plus
 * `Cache-Control: no-store`: no cache may keep a charged answer, a balance, or the docs page,
 * whose script nonce must be new for every response. Strict-Transport-Security is left to the TLS
 * terminator in front of the service (the service itself speaks plain HTTP, and only the
 * deployment knows whether its sub-domains all use HTTPS).
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
  'Cache-Control': 'no-store',
};

// Lower-case on the wire, as every other header the app writes.
const SECURITY_ENTRIES = Object.entries(SECURITY_HEADERS).map(([name, value]) => [name.toLowerCase(), value]);

/**
 * On every response: each of `SECURITY_HEADERS` the route did not set itself. A route with a
 * header of its own keeps it: the docs page its policy, the docs' script bundle its caching.
 * Served by Node, they are set on Node's response before the app runs, and the Response's own
 * headers are merged over them when it is written (see `setAnswerHeader`); called without Node,
 * they are added to the Response.
 */
export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  const outgoing = nodeResponse(c);
  if (outgoing !== undefined) {
    for (const [name, value] of SECURITY_ENTRIES) outgoing.setHeader(name, value);
    return next();
  }
  await next();
  const headers = c.res.headers;
  for (const [name, value] of SECURITY_ENTRIES) if (!headers.has(name)) headers.set(name, value);
});

/**
 * The reference docs page (Scalar): scripts only from the service, plus the page's inline start-up
 * script, which carries this response's nonce (`secureHeadersNonce`; operations/contract-documents.ts puts it
 * on the tag). Styles may be inline: Scalar sets styles at run time. Requests ("Try it", the
 * contract) go to the service only; images and fonts may also be data: or blob: URLs that Scalar
 * builds itself. Nothing may come from anywhere else, so the page also works offline.
 * Only the policy is set here; `securityHeaders` adds every other header of `SECURITY_HEADERS`.
 */
export const docsPageSecurityHeaders = contentSecurityPolicyOnly({
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
});

/**
 * A page's own Content-Security-Policy and nothing else: `securityHeaders` adds every other header
 * of `SECURITY_HEADERS`, so turning them off here keeps each stated once.
 */
export function contentSecurityPolicyOnly(policy: ContentSecurityPolicy) {
  return secureHeaders({
    crossOriginResourcePolicy: false,
    crossOriginOpenerPolicy: false,
    originAgentCluster: false,
    referrerPolicy: false,
    strictTransportSecurity: false,
    xContentTypeOptions: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xFrameOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    removePoweredBy: false,
    contentSecurityPolicy: policy,
  });
}
