import type { Context } from 'hono';
import { nodeResponse } from './answer-headers.ts';
import { whenConnectionCloses } from './connection-close.ts';

/**
 * Whether this request's answer left the process: resolves true once Node handed the whole
 * response to the operating system ('finish'), false when the connection closed or failed first,
 * an answer queued behind a pipelined request's included (its charge is refunded at once, R11.2).
 * An app called without a Node server (`app.request` in tests) has no connection to lose: true.
 */
export function answerDelivered(c: Context): Promise<boolean> {
  const outgoing = nodeResponse(c);
  if (outgoing === undefined || outgoing.writableFinished) return Promise.resolve(true);
  if (outgoing.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (sent: boolean) => {
      if (settled) return;
      settled = true;
      stopWaiting();
      resolve(sent);
    };
    const stopWaiting = whenConnectionCloses(outgoing.req.socket, () => settle(outgoing.writableFinished));
    outgoing.once('finish', () => settle(true));
    outgoing.once('close', () => settle(outgoing.writableFinished));
  });
}
