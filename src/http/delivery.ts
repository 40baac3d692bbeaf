import type { Context } from 'hono';
import { nodeResponse } from './answer-headers.ts';

/**
 * Whether this request's answer left the process: resolves true once Node handed the whole
 * response to the operating system ('finish'), false when the connection closed or failed first.
 * An app called without a Node server (`app.request` in tests) has no connection to lose: true.
 */
export function answerDelivered(c: Context): Promise<boolean> {
  const outgoing = nodeResponse(c);
  if (outgoing === undefined || outgoing.writableFinished) return Promise.resolve(true);
  if (outgoing.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    outgoing.once('finish', () => resolve(true));
    outgoing.once('close', () => resolve(outgoing.writableFinished));
  });
}
