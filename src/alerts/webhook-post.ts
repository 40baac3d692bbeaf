import type http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { type Resolve, type ResolvedAddress, receiverAddresses } from './receiver-addresses.ts';

/** How long one post may take, resolution and connection included, before it counts as failed. */
export const POST_TIMEOUT_MS = 10_000;

/** The longest answer body read (only its status matters). */
const MAX_ANSWER_BYTES = 64 * 1024;

/** What a post hands to `connect`: the checked address and port, and the TLS options. */
export type ConnectOptions = tls.ConnectionOptions & { host: string; port: number };

/** Opens the TLS connection of one post to an address already checked. */
export type Connect = (options: ConnectOptions) => tls.TLSSocket;

export interface WebhookPostOptions {
  /** Reach loopback and private addresses too (tests, and a receiver on the operator's own network). */
  allowPrivateAddresses?: boolean;
  /** Certificate authorities to trust instead of the system's (tests with a self-signed receiver). */
  ca?: string | Buffer;
  /** How the URL's host name becomes addresses; the system's resolver by default. */
  resolve?: Resolve;
  /** How a connection is opened to a checked address; `tls.connect` by default. */
  connect?: Connect;
  /** How long one post may take in all (POST_TIMEOUT_MS; shorter in tests). */
  timeoutMs?: number;
  /**
   * Keeps connections open between posts (a KeptAliveReceivers): for many posts to one receiver,
   * whose events carry an id the receiver drops repeats by. Without it, a connection per post.
   */
  agent?: KeptAliveReceivers;
}

/**
 * An agent that keeps TLS connections to receivers open and reuses them (watch news: thousands of
 * posts to one receiver after a load). Each new connection goes only to an address the receiver
 * address rules allow (docs/product-rules.md R14.13), resolved when it is opened. A kept-alive
 * connection the receiver closed meanwhile may fail a post it received: the retry posts the same
 * event id again, which the receiver drops.
 */
export class KeptAliveReceivers extends https.Agent {
  readonly #rules: Pick<WebhookPostOptions, 'allowPrivateAddresses' | 'ca' | 'resolve' | 'connect'>;

  constructor(rules: Pick<WebhookPostOptions, 'allowPrivateAddresses' | 'ca' | 'resolve' | 'connect'> = {}) {
    super({ keepAlive: true, maxSockets: 32, maxFreeSockets: 32, timeout: POST_TIMEOUT_MS });
    this.#rules = rules;
  }

  override createConnection(
    options: https.RequestOptions,
    opened: (error: Error | null, socket: Duplex) => void,
  ): Duplex {
    const { allowPrivateAddresses = false, ca, resolve, connect = tls.connect } = this.#rules;
    const host = String(options.hostname ?? options.host ?? '').replace(/^\[|\]$/g, '');
    const port = Number(options.port ?? 443);
    const deadline = AbortSignal.timeout(POST_TIMEOUT_MS);
    const timedOut = () => new Error(`no connection within ${POST_TIMEOUT_MS} ms`);
    receiverAddresses(host, { resolve, allowPrivateAddresses })
      .then((found) => {
        if (found.reachable.length === 0) throw new Error(found.refused[0] ?? `${host} has no address`);
        const tlsOptions: tls.ConnectionOptions = {
          ...(isIP(host) === 0 && { servername: host }),
          ...(ca !== undefined && { ca }),
        };
        return connectToFirst(found.reachable, port, tlsOptions, connect, deadline, timedOut);
      })
      .then(
        (socket) => opened(null, socket),
        (error: Error) => opened(error, undefined as unknown as Duplex),
      );
    return undefined as unknown as Duplex;
  }
}

export interface WebhookAnswer {
  /** The receiver's HTTP status; null when it did not answer. */
  status: number | null;
  /** Why the post failed; null when the receiver answered 2xx. */
  error: string | null;
}

/**
 * Posts one JSON body over HTTPS; redirects are not followed (a 3xx counts as failed). The host
 * is resolved once, here, and the post connects only to an address found public
 * (docs/product-rules.md R14.13): the address checked is the address connected to, so a name that
 * resolves to a private address, or is made to between a check and the connection, reaches nothing.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  {
    allowPrivateAddresses = false,
    ca,
    resolve,
    connect = tls.connect,
    timeoutMs = POST_TIMEOUT_MS,
    agent,
  }: WebhookPostOptions = {},
): Promise<WebhookAnswer> {
  const target = new URL(url);
  if (target.protocol !== 'https:') return { status: null, error: 'the URL is not https' };
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const deadline = AbortSignal.timeout(timeoutMs);
  const timedOut = () => new Error(`no answer within ${timeoutMs} ms`);
  const headersSent = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers };
  if (agent !== undefined)
    return answerOf(https.request(target, { method: 'POST', agent, headers: headersSent, signal: deadline }), body, {
      deadline,
      timedOut,
    });
  let addresses: ResolvedAddress[];
  try {
    const found = await Promise.race([
      receiverAddresses(host, { resolve, allowPrivateAddresses }),
      new Promise<never>((_, reject) => deadline.addEventListener('abort', () => reject(timedOut()))),
    ]);
    if (found.reachable.length === 0) return { status: null, error: found.refused[0] ?? `${host} has no address` };
    addresses = found.reachable;
  } catch (error) {
    return { status: null, error: `${host} does not resolve: ${messageOf(error)}` };
  }
  const port = Number(target.port || 443);
  const tlsOptions: tls.ConnectionOptions = {
    // The certificate is checked against the URL's host name (sent as SNI), or its address.
    ...(isIP(host) === 0 && { servername: host }),
    ...(ca !== undefined && { ca }),
  };
  const request = https.request(target, {
    method: 'POST',
    // No agent: a connection per post. A kept-alive one the receiver closed meanwhile would
    // fail a post it may have received, and the retry would deliver it twice.
    createConnection: (_options, opened: (error: Error | null, socket: Duplex) => void) => {
      connectToFirst(addresses, port, tlsOptions, connect, deadline, timedOut).then(
        (socket) => opened(null, socket),
        (error: Error) => opened(error, undefined as unknown as Duplex),
      );
      return undefined as unknown as Duplex;
    },
    headers: headersSent,
    signal: deadline,
  });
  return answerOf(request, body, { deadline, timedOut });
}

/** Sends `body` on `request` and reads the answer's status (its body up to MAX_ANSWER_BYTES). */
function answerOf(
  request: http.ClientRequest,
  body: string,
  { deadline, timedOut }: { deadline: AbortSignal; timedOut: () => Error },
): Promise<WebhookAnswer> {
  return new Promise((done) => {
    request.on('response', (response) => {
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) response.destroy();
      });
      response.on('end', () => finish(response.statusCode));
      response.on('close', () => finish(response.statusCode));
    });
    let finished = false;
    const finish = (status: number | undefined) => {
      if (finished) return;
      finished = true;
      const ok = status !== undefined && status >= 200 && status < 300;
      done({ status: status ?? null, error: ok ? null : `the endpoint answered ${status}` });
    };
    request.on('error', (error) => {
      if (finished) return;
      finished = true;
      done({ status: null, error: (deadline.aborted ? timedOut() : error).message.slice(0, 500) });
    });
    request.end(body);
  });
}

/** The first of `addresses` that a TLS connection opens to, tried in turn. */
function connectToFirst(
  addresses: ResolvedAddress[],
  port: number,
  tlsOptions: tls.ConnectionOptions,
  connect: Connect,
  deadline: AbortSignal,
  timedOut: () => Error,
): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const attempt = (index: number, lastError: Error | null) => {
      if (deadline.aborted || index >= addresses.length) return reject(lastError ?? new Error('no address'));
      const socket = connect({ ...tlsOptions, host: addresses[index].address, port });
      const abort = () => socket.destroy(timedOut());
      const failed = (error: Error) => {
        deadline.removeEventListener('abort', abort);
        attempt(index + 1, error);
      };
      deadline.addEventListener('abort', abort, { once: true });
      socket.once('error', failed);
      socket.once('secureConnect', () => {
        deadline.removeEventListener('abort', abort);
        socket.off('error', failed);
        resolve(socket);
      });
    };
    attempt(0, null);
  });
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error)).slice(
    0,
    200,
  );
}
