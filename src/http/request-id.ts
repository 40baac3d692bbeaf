import { randomUUID } from 'node:crypto';
import { createMiddleware } from 'hono/factory';
import { headerSchema, meetsRule, stringRule } from '../contract/request-rules.ts';
import { setAnswerHeader } from './answer-headers.ts';
import type { AppEnv } from './app-env.ts';

/**
 * A caller-supplied id is kept only when it is short and plain, so it is safe to log and echo:
 * when it is a value the contract's `X-Request-Id` header schema allows (read at start-up).
 */
const ACCEPTABLE_ID = stringRule(headerSchema('X-Request-Id'), 'openapi.yaml: components/headers/X-Request-Id');
/** ...and not an API key sent in the wrong header: the id is logged and stored in the ledger. */
const API_KEY_PREFIX = /^alk_/i;

export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header('x-request-id');
  const acceptable = incoming !== undefined && meetsRule(ACCEPTABLE_ID, incoming) && !API_KEY_PREFIX.test(incoming);
  const id = acceptable ? incoming : randomUUID();
  c.set('requestId', id);
  await next();
  setAnswerHeader(c, 'X-Request-Id', id);
});
