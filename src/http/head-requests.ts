import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './app-env.ts';

/**
 * `HEAD` is answered exactly like `GET` without the body (RFC 9110 §9.3.2), `Content-Length`
 * included. hono answers a `HEAD` by running the `GET` and dropping its body, and the HTTP adapter
 * measures the length of a body it writes only, so without this the `HEAD` answer had none.
 * Runs outside every other middleware, so it measures the final body, errors included.
 */
export const headAnswersLikeGet = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  if (c.req.method !== 'HEAD' || c.res.body === null || c.res.headers.has('Content-Length')) return;
  const length = (await c.res.clone().arrayBuffer()).byteLength;
  c.res.headers.set('Content-Length', String(length));
});
