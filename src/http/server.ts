import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { HttpLimits } from '../config.ts';
import {
  type ApiError,
  badRequest,
  connectNotSupported,
  errorBody,
  expectationFailed,
  headersTooLarge,
  internalError,
  requestTimeout,
} from '../contract/errors.ts';
import { SECURITY_HEADERS } from './security-headers.ts';

type Fetch = (request: Request, env: unknown) => Response | Promise<Response>;

/** The only methods the service answers anywhere (every operation and document is a GET). */
const SERVED_METHODS = ['GET', 'HEAD'] as const;

/**
 * The HTTP server in front of the app, with the limits of `HttpLimits`:
 * - Node's parser refuses a request line plus headers over `maxHeaderBytes`, a request that is
 *   not valid HTTP (a bare CR or LF in a header, a NUL, raw non-ASCII bytes in the URL) and a
 *   request not received in time. Node would answer those with a bare status line; here they get
 *   the API's JSON error body, an `X-Request-Id` and the security headers, like every other
 *   answer, and the connection is closed. So are the requests refused below before the app sees
 *   them (`refusalBeforeTheApp`), an `Expect` other than `100-continue` (417) and `CONNECT` (405).
 * - A request whose framing is invalid is refused before any operation runs: it costs nothing.
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
      // A request pipelined behind one whose answer closes the connection can never be answered
      // on it: it is not run, so never charged (R11.15); the client sends it again on a new one.
      if (connectionEnds(request.socket)) return;
      track(request, response);
      if (!response.shouldKeepAlive) ending.add(request.socket);
      const framing = framingOf(request);
      const refusal = refusalBeforeTheApp(request, framing);
      if (refusal !== null) {
        ending.add(request.socket);
        answer(response, refusal);
        return;
      }
      // No API operation reads a request body (only the account page's form posts do). One that
      // was announced and never read would keep the connection waiting for it after the answer,
      // until the request timeout wrote a second, unrequested answer (408) to the same request: the
      // connection ends with the answer instead; a browser opens a new one for its next page.
      if (declaresBody(framing)) {
        ending.add(request.socket);
        response.setHeader('Connection', 'close');
      }
      void listener(request, response);
    },
  );

  /**
   * The connections an answer already on its way will close: the client asked for it
   * (`Connection: close`, HTTP/1.0), or the server did (a refusal, a body no operation reads).
   */
  const ending = new WeakSet<Duplex>();
  /**
   * Whether nothing more can be answered on `socket`: it is closed, or an earlier answer will close
   * it, one marked above or one another part of the service marked `Connection: close` (a shutdown).
   */
  function connectionEnds(socket: Duplex): boolean {
    if (socket.destroyed || ending.has(socket)) return true;
    for (const response of answering.get(socket) ?? [])
      if (String(response.getHeader('connection') ?? '').toLowerCase() === 'close') return true;
    return false;
  }

  // A connection's own answers may still be on their way when its next request fails to parse or
  // asks for something refused on the raw socket: the refusal is written after them, never into
  // the middle of one. Tracked per connection, public API only.
  const answering = new WeakMap<Duplex, Set<http.ServerResponse>>();
  function track(request: http.IncomingMessage, response: http.ServerResponse) {
    const socket = request.socket;
    const open = answering.get(socket) ?? new Set<http.ServerResponse>();
    answering.set(socket, open);
    open.add(response);
    const finished = () => open.delete(response);
    response.once('finish', finished);
    response.once('close', finished);
  }
  /** Writes `refusal` once every answer in flight on `socket` is written, then closes the connection. */
  function refuseOnSocket(socket: Duplex, refusal: ApiError, extraHeaders: Record<string, string> = {}) {
    const write = () => {
      if (socket.writable) {
        socket.end(rawResponse(refusal, extraHeaders));
      } else if (!socket.writableEnded) {
        socket.destroy();
      }
      // Otherwise the last answer said `Connection: close` and the connection is closing after it:
      // a second response to that request would be one nobody asked for.
    };
    // Until its 'finish' event, even an answer whose bytes are all out may still close the connection.
    const open = [...(answering.get(socket) ?? [])];
    if (open.length === 0) return write();
    let left = open.length;
    for (const response of open) {
      let done = false;
      const finished = () => {
        if (done) return;
        done = true;
        if (--left === 0) write();
      };
      // Registered after Node's own 'finish' listener, which closes the connection after an answer that says so.
      response.once('finish', finished);
      response.once('close', finished);
    }
  }

  // Node answers an `Expect` it does not know with a bare 417 (and keeps the connection open).
  server.on('checkExpectation', (request: http.IncomingMessage, response: http.ServerResponse) => {
    if (connectionEnds(request.socket)) return;
    track(request, response);
    ending.add(request.socket);
    answer(response, expectationFailed());
  });

  // CONNECT asks for a tunnel; without a listener Node closes the connection without a word.
  server.on('connect', (_request: http.IncomingMessage, socket: Duplex) => {
    socket.on('error', () => socket.destroy());
    refuseOnSocket(socket, connectNotSupported(SERVED_METHODS), { Allow: SERVED_METHODS.join(', ') });
  });

  // After a parse error Node's parser stays failed: more bytes or its timeout check report it again.
  const refused = new WeakSet<Duplex>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (refused.has(socket)) return;
    refused.add(socket);
    // The client went away or broke the connection: there is nobody to answer.
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const refusal =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? headersTooLarge(limits.maxHeaderBytes)
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? requestTimeout()
          : badRequest();
    refuseOnSocket(socket, refusal);
  });
  return server;
}

/** What the server checks of a request's headers before the app sees it. */
interface Framing {
  hosts: number;
  /** Every Transfer-Encoding header, joined. */
  transferEncoding: string | undefined;
  contentLength: string | undefined;
}

/**
 * Read from the raw pairs in one pass: `headers` and `headersDistinct` build an object per
 * request, which nothing else on the request path needs (the adapter reads the raw pairs too).
 */
function framingOf(request: http.IncomingMessage): Framing {
  const raw = request.rawHeaders;
  const framing: Framing = { hosts: 0, transferEncoding: undefined, contentLength: undefined };
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length === 4 && name.toLowerCase() === 'host') framing.hosts += 1;
    else if (name.length === 17 && name.toLowerCase() === 'transfer-encoding')
      framing.transferEncoding =
        framing.transferEncoding === undefined ? raw[i + 1] : `${framing.transferEncoding}, ${raw[i + 1]}`;
    else if (name.length === 14 && name.toLowerCase() === 'content-length') framing.contentLength = raw[i + 1];
  }
  return framing;
}

/**
 * A request refused before the app sees it, when Node's parser let it through:
 * - HTTP/1.1 without a Host header, or with more than one (RFC 9112 §3.2);
 * - a Transfer-Encoding whose final coding is not `chunked`: the body's length cannot be known,
 *   so the request must be refused and the connection closed (RFC 9112 §6.3). Node's parser
 *   reports it only after handing the request over.
 */
function refusalBeforeTheApp(request: http.IncomingMessage, { hosts, transferEncoding }: Framing): ApiError | null {
  if (hosts > 1 || (request.httpVersion === '1.1' && hosts === 0)) return badRequest();
  if (transferEncoding !== undefined && transferEncoding.split(',').at(-1)!.trim().toLowerCase() !== 'chunked')
    return badRequest();
  return null;
}

/** The request announces a body: a non-zero Content-Length, or a chunked one. */
function declaresBody({ transferEncoding, contentLength }: Framing): boolean {
  return transferEncoding !== undefined || (contentLength !== undefined && Number(contentLength) !== 0);
}

/**
 * The headers of a refusal made outside the app: the app's security headers on every one, and the connection closed.
 */
function headersFor(body: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Request-Id': randomUUID(),
    ...SECURITY_HEADERS,
    ...extra,
    Connection: 'close',
  };
}

function refusalBody(error: ApiError): string {
  return JSON.stringify(
    error.isServerError
      ? errorBody(error, { credits_refunded: 0 }, `${error.message} Nothing was charged for this call.`)
      : errorBody(error),
  );
}

function jsonResponse(error: ApiError): Response {
  const body = refusalBody(error);
  return new Response(body, { status: error.status, headers: headersFor(body) });
}

function answer(response: http.ServerResponse, error: ApiError): void {
  const body = refusalBody(error);
  response.writeHead(error.status, headersFor(body));
  response.end(body);
}

/**
 * The refusal as bytes on the wire, where no ServerResponse exists: the parser gave up on this connection, or it left
 * HTTP (CONNECT).
 */
function rawResponse(error: ApiError, extraHeaders: Record<string, string>): string {
  const body = refusalBody(error);
  const lines = Object.entries(headersFor(body, extraHeaders)).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status]}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}
