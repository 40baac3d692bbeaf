import { setTimeout as sleep } from 'node:timers/promises';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './app-env.ts';

/**
 * Answers every 401 no sooner than `floorMs` after the request arrived, so the time of the answer
 * does not tell which check refused the key. A missing or malformed key, a wrong checksum and a
 * key in the URL are refused without a database lookup (docs/product-rules.md R4.7, R5.3), one round trip
 * sooner than an unknown or revoked key or a disabled account, whose lookup finds no active key.
 * Waiting out the floor evens that out at no cost to the database: the request only holds a
 * timer. The floor sits above a lookup's usual time, so every case waits for the floor, not for
 * the database; a lookup slower than the floor on an overloaded server is the noise it then hides in.
 */
export const steadyRefusals = (floorMs: number) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const arrived = performance.now();
    await next();
    if (c.res.status !== 401) return;
    const remaining = arrived + floorMs - performance.now();
    if (remaining > 0) await sleep(Math.ceil(remaining));
  });
