import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The address the request came from, for the sign-in and reset limits: the socket's peer. A
 * forwarded-for header is not trusted (any client can write one); behind a proxy, every client
 * shares the proxy's allowance and the per-account limit still holds.
 */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
