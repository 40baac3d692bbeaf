import { createMiddleware } from 'hono/factory';
import { uriTooLong } from '../contract/errors.ts';
import type { AppEnv } from './app-env.ts';

/**
 * Refuses a request whose URL (path and query) is longer than `maxUrlBytes`: 414 `uri_too_long`,
 * free, before the path, the key or any parameter is looked at. A longer request line and headers
 * never get this far: the HTTP server answers them 431 (src/http/server.ts).
 */
export const requestLimits = ({ maxUrlBytes }: { maxUrlBytes: number }) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const url = c.req.url;
    // The request target: everything from the first "/" after "scheme://host". It is ASCII on the
    // wire (the HTTP parser refuses anything else), so its length in characters is its length in bytes.
    const target = url.length - url.indexOf('/', url.indexOf('//') + 2);
    if (target > maxUrlBytes) throw uriTooLong(maxUrlBytes);
    await next();
  });
