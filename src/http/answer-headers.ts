import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';

/**
 * Node's response to this request when the service's HTTP server runs the app
 * (@hono/node-server passes it as `c.env.outgoing`); undefined when the app is called without
 * one (`app.request` in tests).
 */
export function nodeResponse(c: Context): ServerResponse | undefined {
  return (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
}

/**
 * Sets a header the HTTP edge adds to an answer (its request id, credits, rate limit).
 *
 * Served by Node, the header goes on Node's response: @hono/node-server writes the answer with
 * `writeHead(status, headers of the Response)`, and Node merges those over it, so a header the
 * route set itself would still win. The handler's Response then keeps its one plain header
 * (`Content-Type`), which the adapter writes without building a Fetch `Headers` object: each
 * `Headers` operation costs about a microsecond, and an answer carries up to 19 such headers
 * (docs/benchmarks.md, "Where the request path spends its time").
 *
 * Never `c.header()` once the answer exists: hono then rebuilds the Response for every call,
 * turning the adapter's lightweight response into one with a body stream, which the adapter
 * writes by reading the stream and may wait a timer tick for: about 1 ms more per request.
 */
export function setAnswerHeader(c: Context, name: string, value: string): void {
  const outgoing = nodeResponse(c);
  // Lower-case on the wire, as the Response's own headers are written.
  if (outgoing !== undefined && !outgoing.headersSent) outgoing.setHeader(name.toLowerCase(), value);
  else c.res.headers.set(name, value);
}

/**
 * Where the HTTP adapter (@hono/node-server) keeps what a lightweight response was made with:
 * `[status, body, headers]` under a symbol of its own, found on the first answer that has it.
 */
let madeWith: symbol | undefined;

/**
 * The body an answer was made with, when it is still the HTTP adapter's lightweight response made
 * from a string or bytes (every `c.json` answer): read without turning the response into a Fetch
 * Response with a body stream, which cost about 50 µs per request here (docs/benchmarks.md,
 * "Where the request path spends its time"). Undefined otherwise: without Node (`app.request`),
 * for a stream, or should a later adapter keep it otherwise; the caller then reads the answer back.
 */
export function bodyAsMade(answer: Response): string | Uint8Array | undefined {
  madeWith ??= Object.getOwnPropertySymbols(answer).find((symbol) => symbol.description === 'cache');
  const kept: unknown = madeWith === undefined ? undefined : (answer as unknown as Record<symbol, unknown>)[madeWith];
  if (!Array.isArray(kept) || kept.length !== 3) return undefined;
  const body: unknown = kept[1];
  return typeof body === 'string' || body instanceof Uint8Array ? body : undefined;
}
