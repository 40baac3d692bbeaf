import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { App } from '../../src/app.ts';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../src/config.ts';
import { createHttpServer } from '../../src/http/server.ts';

export interface TestHttpServer {
  server: http.Server;
  host: string;
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * The app behind the service's real HTTP server (src/http/server.ts) on a free loopback port.
 * The URL limit is the app's (createApp's `limits`); the others are the server's.
 */
export async function startHttpServer(app: App, limits: Partial<HttpLimits> = {}): Promise<TestHttpServer> {
  const server = createHttpServer(app.fetch, { ...DEFAULT_HTTP_LIMITS, ...limits }, '127.0.0.1');
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    host: '127.0.0.1',
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RawAnswer {
  status: number;
  headers: Headers;
  body: string;
  /** Everything the server sent, as text. */
  raw: string;
  /** Milliseconds from the first byte sent to the connection's close. */
  ms: number;
}

/**
 * Sends `request` byte for byte as given (no client library fixes it up) and reads until the
 * server closes the connection; `Connection: close` is the caller's to add. Rejects after `timeoutMs`.
 */
export function rawRequest(port: number, request: string | Buffer, timeoutMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may reset a connection it refused while we were still sending; what it sent first still counts.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('utf8');
      resolve({ ...parseAnswer(raw), raw, ms: performance.now() - started });
    });
    socket.write(request);
  });
}

export function parseAnswer(raw: string): { status: number; headers: Headers; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return { status: 0, headers: new Headers(), body: '' };
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: raw.slice(end + 4) };
}

/** The answer as a fetch Response, so test/support/contract.ts can validate it against openapi.yaml. */
export function asResponse(answer: RawAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/**
 * Every response in `raw`, in order, each delimited by its Content-Length (the service sends one
 * on every answer); interim `1xx` responses are skipped. What follows the last one is ignored.
 */
export function parseAnswers(raw: string): { status: number; headers: Headers; body: string }[] {
  const answers: { status: number; headers: Headers; body: string }[] = [];
  let bytes = Buffer.from(raw, 'utf8');
  while (bytes.length > 0) {
    const end = bytes.indexOf('\r\n\r\n');
    if (end === -1) break;
    const head = parseAnswer(`${bytes.subarray(0, end).toString('utf8')}\r\n\r\n`);
    const length = head.status >= 200 ? Number(head.headers.get('content-length') ?? 0) : 0;
    const body = bytes.subarray(end + 4, end + 4 + length).toString('utf8');
    if (head.status >= 200) answers.push({ ...head, body });
    bytes = bytes.subarray(end + 4 + length);
  }
  return answers;
}
