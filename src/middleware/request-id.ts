import { randomUUID } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../app-env.ts';

/** A caller-supplied id is kept only when it is short and plain, so it is safe to log and echo. */
const ACCEPTABLE_ID = /^[A-Za-z0-9._-]{8,128}$/;
/** ...and not an API key sent in the wrong header: the id is logged and stored in the ledger. */
const API_KEY_PREFIX = /^alk_/i;

export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header('x-request-id');
  const acceptable = incoming !== undefined && ACCEPTABLE_ID.test(incoming) && !API_KEY_PREFIX.test(incoming);
  const id = acceptable ? incoming : randomUUID();
  c.set('requestId', id);
  await next();
  c.header('X-Request-Id', id);
});
