import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Socket } from 'node:net';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { HttpLimits } from './config.ts';
import { type ApiError, badRequest, errorBody, headersTooLarge, internalError, requestTimeout } from './errors.ts';

type Fetch = (request: Request, env: unknown) => Response | Promise<Response>;

/**
 * The HTTP server in front of the app, with the limits of `HttpLimits`:
 * - Node's parser refuses a request line plus headers over `maxHeaderBytes`, a request that is
 *   not valid HTTP (a bare CR or LF in a header, a NUL, raw non-ASCII bytes in the URL) and a
 *   request not received in time. Node would answer those with a bare status line; here they get
 *   the API's JSON error body and an `X-Request-Id`, like every other answer, and the connection
 *   is closed.
 * - A slow client (slowloris) is cut off once `headersTimeoutMs` has passed without complete
 *   headers; timeouts are checked often enough that it does not linger long past its deadline.
 *   Slow connections cost a socket and a timer each and never hold up other clients.
 */
export function createHttpServer(fetch: Fetch, limits: HttpLimits, hostname?: string): http.Server {
  const listener = getRequestListener(fetch, {
    hostname,
    // Requests Node parsed but the adapter cannot turn into a URL (a backslash in the path, a bad Host header).
    errorHandler: (error) => jsonResponse(error instanceof RequestError ? badRequest() : internalError(error)),
  });
  const server = http.createServer(
    {
      // HTTP/1.1 requires a Host header; Node's own refusal is a bare 400, so the check is made below.
      requireHostHeader: false,
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts above every 30 s by default, so a slow client could stay up to
      // 30 s past its deadline; a check a few times per timeout costs one pass over the connections.
      connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    (request, response) => {
      if (request.httpVersion === '1.1' && request.headers.host === undefined) {
        void answer(response, badRequest());
        return;
      }
      void listener(request, response);
    },
  );

  // A connection's own answer may still be on its way when its next request fails to parse; the
  // refusal must not be written into the middle of it. Counted per connection, public API only.
  const answering = new WeakMap<Socket, number>();
  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    const socket = request.socket;
    answering.set(socket, (answering.get(socket) ?? 0) + 1);
    let done = false;
    const finished = () => {
      if (done) return;
      done = true;
      answering.set(socket, (answering.get(socket) ?? 1) - 1);
    };
    response.once('finish', finished);
    response.once('close', finished);
  });

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // The client went away or broke the connection: there is nobody to answer.
    if (error.code === 'ECONNRESET' || !socket.writable || (answering.get(socket) ?? 0) > 0) {
      socket.destroy();
      return;
    }
    const refusal =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? headersTooLarge(limits.maxHeaderBytes)
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? requestTimeout()
          : badRequest();
    socket.end(rawResponse(refusal));
  });
  return server;
}

function headersFor(body: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': randomUUID(),
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
    Connection: 'close',
  };
}

function jsonResponse(error: ApiError): Response {
  const body = JSON.stringify(
    error.isServerError ? errorBody(error, { credits_refunded: 0 }, `${error.message} Nothing was charged for this call.`) : errorBody(error),
  );
  return new Response(body, { status: error.status, headers: headersFor(body) });
}

async function answer(response: http.ServerResponse, error: ApiError): Promise<void> {
  const refusal = jsonResponse(error);
  response.writeHead(refusal.status, Object.fromEntries(refusal.headers));
  response.end(await refusal.text());
}

/** The refusal as bytes on the wire: the parser gave up on this connection, so no ServerResponse exists. */
function rawResponse(error: ApiError): string {
  const body = JSON.stringify(errorBody(error));
  const lines = Object.entries(headersFor(body)).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}
