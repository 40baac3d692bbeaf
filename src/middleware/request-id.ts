import { randomUUID } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env.ts';

/** A caller-supplied id is kept only when it is short and plain, so it is safe to log and echo. */
const ACCEPTABLE_ID = /^[A-Za-z0-9._-]{8,128}$/;

export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header('x-request-id');
  const id = incoming !== undefined && ACCEPTABLE_ID.test(incoming) ? incoming : randomUUID();
  c.set('requestId', id);
  await next();
  c.header('X-Request-Id', id);
});
