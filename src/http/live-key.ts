import { createMiddleware } from 'hono/factory';
import { unauthorized } from '../contract/errors.ts';
import { keyIsLive } from '../data/api-keys.ts';
import type { Sql } from '../data/client.ts';
import type { AppEnv } from './app-env.ts';

/**
 * After `authentication`: a well-formed key that is not live (unknown, revoked, of a disabled
 * account) is `401` before any of the request is read or answered, so a forged key (its checksum
 * is public) costs the service one indexed lookup and nothing more (docs/product-rules.md R21.1).
 */
export const liveKeyOnly = (sql: Sql) =>
  createMiddleware<AppEnv>(async (c, next) => {
    if (!(await keyIsLive(sql, c.get('apiKeyHash'), c.get('sandbox')))) throw unauthorized();
    await next();
  });
