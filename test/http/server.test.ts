// @module-tag runtime
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../support/api.ts';
import { testApp } from '../support/app.ts';
import { validateResponse } from '../support/contract.ts';
import { createFixtureApi } from '../support/fixture.ts';
import {
  asResponse,
  parseAnswers,
  type RawAnswer,
  rawRequest,
  startHttpServer,
  type TestHttpServer,
} from '../support/http.ts';

const OPERATIONS = [
  '/api/v1/advertiser?name=Nobody',
  '/api/v1/domain?domain=nothing-here.com',
  '/api/v1/advertiser/history?name=Nobody',
  '/api/v1/advertiser/domains?name=Nobody',
  '/api/v1/brandbid?domain=nothing-here.com',
  '/api/v1/account',
];
const MAX_HEADER_BYTES = 16 * 1024;

/** A refusal made before any operation: the API's JSON error body, an X-Request-Id, the connection closed. */
function expectRefusal(answer: RawAnswer, status: number, error: string) {
  expect(answer.status, answer.raw.slice(0, 300)).toBe(status);
  expect(answer.headers.get('content-type')).toBe('application/json');
  expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer.headers.get('connection')).toBe('close');
  expect(answer.headers.get('x-credits-charged')).toBeNull();
  const body = JSON.parse(answer.body);
  expect(body).toEqual({ error, message: expect.stringMatching(/\S/) });
  expect(Number(answer.headers.get('content-length'))).toBe(Buffer.byteLength(answer.body));
}

describe('HTTP server limits (src/http/server.ts)', () => {
  let api: TestApi;
  let http: TestHttpServer;
  let key: string;
  let accountId: number;
  beforeAll(async () => {
    api = await createTestApi();
    const limits = { maxHeaderBytes: MAX_HEADER_BYTES, maxUrlBytes: 12 * 1024 };
    http = await startHttpServer(testApp({ sql: api.db.sql, limits }), limits);
    ({ key, accountId } = await api.newKey(1000));
  });
  afterAll(async () => {
    await http.close();
    await api.close();
  });

  const get = (target: string, headers: string[] = []) =>
    [
      `GET ${target} HTTP/1.1`,
      `Host: ${http.host}:${http.port}`,
      `Authorization: Bearer ${key}`,
      'Connection: close',
      ...headers,
      '',
      '',
    ].join('\r\n');

  it('headers over the limit: 431 headers_too_large on every operation, JSON, documented, free, at once', async () => {
    for (const target of OPERATIONS) {
      const answer = await rawRequest(http.port, get(target, [`X-Padding: ${'p'.repeat(MAX_HEADER_BYTES)}`]));
      expectRefusal(answer, 431, 'headers_too_large');
      expect(answer.ms).toBeLessThan(2_000);
      const validated = await validateResponse('GET', target, asResponse(answer));
      expect(validated.body.message).toBe(
        `The request line and headers together are larger than ${MAX_HEADER_BYTES} bytes.`,
      );
    }
    expect(await api.balanceOf(accountId)).toBe(1000);
  });

  it('many headers, each small, count together: 431', async () => {
    const many = Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'v'.repeat(40)}`);
    expectRefusal(await rawRequest(http.port, get('/api/v1/account', many)), 431, 'headers_too_large');
  });

  it(
    'a URL longer than the whole header limit is refused by ' +
      "the parser: 431; a shorter over-long one is the app's 414",
    async () => {
      expectRefusal(
        await rawRequest(http.port, get(`/api/v1/account?x=${'a'.repeat(MAX_HEADER_BYTES)}`)),
        431,
        'headers_too_large',
      );
      const target = `/api/v1/account?x=${'a'.repeat(13 * 1024)}`;
      const answer = await rawRequest(http.port, get(target));
      expect(answer.status).toBe(414);
      expect((await validateResponse('GET', target, asResponse(answer))).body.error).toBe('uri_too_long');
    },
  );

  it('fetch gets the 431 too, also on a connection it reused for an earlier request', async () => {
    const headers = { Authorization: `Bearer ${key}` };
    const first = await fetch(`${http.url}/api/v1/account`, { headers });
    expect(first.status).toBe(200);
    await first.text();
    const refused = await fetch(`${http.url}/api/v1/account`, {
      headers: { ...headers, 'X-Padding': 'p'.repeat(MAX_HEADER_BYTES) },
    });
    expect(refused.status).toBe(431);
    expect((await validateResponse('GET', '/api/v1/account', refused)).body.error).toBe('headers_too_large');
    // The service goes on answering.
    expect((await fetch(`${http.url}/api/v1/account`, { headers })).status).toBe(200);
  });

  it('a 10 kB parameter through the real server: the free 400 of the parameter rules, fast', async () => {
    for (const [target, error] of [
      [`/api/v1/advertiser?name=${'n'.repeat(10_240)}`, 'invalid_name'],
      [`/api/v1/brandbid?domain=${'d'.repeat(10_240)}.com`, 'invalid_domain'],
    ] as const) {
      const started = performance.now();
      const response = await fetch(`${http.url}${target}`, { headers: { Authorization: `Bearer ${key}` } });
      expect(performance.now() - started).toBeLessThan(1_000);
      const validated = await validateResponse('GET', target, response);
      expect(validated.status).toBe(400);
      expect(validated.body.error).toBe(error);
    }
    expect(await api.balanceOf(accountId)).toBe(1000);
  });

  it(
    'requests that are not valid HTTP/1.1: 400 bad_request as ' +
      'JSON with X-Request-Id, never a 500, connection closed',
    async () => {
      const host = `Host: 127.0.0.1:${http.port}`;
      const malformed: [string, string | Buffer][] = [
        [
          'bare CR in a header value (header injection)',
          `GET /api/v1/account HTTP/1.1\r\n${host}\r\nX-Request-Id: abcdefgh\rSet-Cookie: x=1\r\n\r\n`,
        ],
        [
          'bare LF in a header value',
          `GET /api/v1/account HTTP/1.1\r\n${host}\r\nX-Request-Id: abcdefgh\nSet-Cookie: x=1\r\n\r\n`,
        ],
        ['NUL in a header value', `GET /api/v1/account HTTP/1.1\r\n${host}\r\nx-api-key: alk_\0\r\n\r\n`],
        [
          'obsolete line folding',
          `GET /api/v1/account HTTP/1.1\r\n${host}\r\nX-Request-Id: abcdefgh\r\n folded\r\n\r\n`,
        ],
        [
          'raw non-ASCII bytes in the URL',
          Buffer.concat([
            Buffer.from('GET /api/v1/advertiser?name='),
            Buffer.from([0xff, 0xc3, 0xa9]),
            Buffer.from(` HTTP/1.1\r\n${host}\r\n\r\n`),
          ]),
        ],
        ['raw space in the URL', `GET /api/v1/advertiser?name=a b HTTP/1.1\r\n${host}\r\n\r\n`],
        ['a backslash in the path', `GET /api\\v1/account HTTP/1.1\r\n${host}\r\nConnection: close\r\n\r\n`],
        ['an invalid Host header', `GET /api/v1/account HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n`],
        ['no Host header in HTTP/1.1', 'GET /api/v1/account HTTP/1.1\r\nConnection: close\r\n\r\n'],
        ['a header name with a space', `GET /api/v1/account HTTP/1.1\r\n${host}\r\nX Bad: 1\r\n\r\n`],
        ['not HTTP at all', '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003'],
      ];
      for (const [what, request] of malformed) {
        const answer = await rawRequest(http.port, request);
        expect(answer.status, what).toBe(400);
        expectRefusal(answer, 400, 'bad_request');
        expect(answer.raw, what).not.toMatch(/Set-Cookie/i);
      }
    },
  );

  it(
    'CR LF in the request line cannot split the response: ' + 'the rest is read as request headers, never echoed',
    async () => {
      const answer = await rawRequest(
        http.port,
        `GET /api/v1/advertiser?name=a\r\nSet-Cookie: x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      );
      expect([400, 401]).toContain(answer.status);
      expect(answer.raw).not.toMatch(/Set-Cookie/i);
    },
  );

  it("a caller's X-Request-Id is echoed only when it is plain: no header injection through it", async () => {
    const id = async (value: string) => {
      const answer = await rawRequest(http.port, get('/api/v1/account', [`X-Request-Id: ${value}`]));
      expect(answer.status).toBe(200);
      return answer.headers.get('x-request-id');
    };
    expect(await id('client-1234.abc_DEF')).toBe('client-1234.abc_DEF');
    for (const hostile of [
      'abc" ; x=1 Set-Cookie: y',
      'id%0D%0ASet-Cookie:%20x=1',
      `${'x'.repeat(129)}`,
      'short',
      'ünïcödé-id-12345',
    ]) {
      const echoed = await id(hostile);
      expect(echoed, hostile).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('slow clients (slowloris) are cut off without holding up anyone else', () => {
  const HEADERS_TIMEOUT_MS = 1_000;
  const SLOW_CLIENTS = 200;
  let api: TestApi;
  let http: TestHttpServer;
  let key: string;
  beforeAll(async () => {
    api = await createTestApi();
    http = await startHttpServer(api.app, {
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      requestTimeoutMs: 2_000,
      keepAliveTimeoutMs: 300,
    });
    ({ key } = await api.newKey(1000));
  });
  afterAll(async () => {
    await http.close();
    await api.close();
  });

  interface SlowClient {
    openedAt: number;
    closedAt: Promise<number>;
    received: () => string;
  }

  /** A client that sends its request line and headers one byte every `intervalMs`, never finishing. */
  function slowClient(intervalMs: number): SlowClient {
    const request = Buffer.from(`GET /api/v1/account HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'s'.repeat(10_000)}`);
    const socket = net.connect(http.port, '127.0.0.1');
    const openedAt = performance.now();
    let sent = 0;
    let received = '';
    const timer = setInterval(() => {
      if (sent < request.length && socket.writable) socket.write(request.subarray(sent, ++sent));
    }, intervalMs);
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', () => {});
    const closedAt = new Promise<number>((resolve) =>
      socket.on('close', () => {
        clearInterval(timer);
        resolve(performance.now());
      }),
    );
    return { openedAt, closedAt, received: () => received };
  }

  it(
    `${SLOW_CLIENTS} connections trickling headers: a normal client is answered ` +
      `promptly meanwhile; each slow one gets 408 and is closed after the headers timeout`,
    async () => {
      const slow = Array.from({ length: SLOW_CLIENTS }, () => slowClient(100));
      const firstClose = Promise.race(slow.map((client) => client.closedAt));

      // While every slow connection is still open, a normal client's calls go through at once.
      const latencies: number[] = [];
      const answeredAt: number[] = [];
      const until = performance.now() + HEADERS_TIMEOUT_MS * 0.7;
      while (performance.now() < until) {
        const started = performance.now();
        const response = await fetch(`${http.url}/api/v1/account`, { headers: { Authorization: `Bearer ${key}` } });
        expect(response.status).toBe(200);
        await response.text();
        answeredAt.push(performance.now());
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const earliestClose = await firstClose;
      const duringAttack = answeredAt.filter((at) => at < earliestClose).length;
      expect(duringAttack).toBeGreaterThanOrEqual(5);
      latencies.sort((a, b) => a - b);
      expect(latencies[Math.floor(latencies.length / 2)]).toBeLessThan(100);
      expect(latencies.at(-1)).toBeLessThan(1_000);

      // Every slow connection is closed by the server, after the timeout and not long past it, with a 408.
      const closed = await Promise.all(slow.map((client) => client.closedAt));
      for (const [index, client] of slow.entries()) {
        const lifetime = closed[index] - client.openedAt;
        expect(lifetime).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
        expect(lifetime).toBeLessThan(HEADERS_TIMEOUT_MS + 2_000);
        expect(client.received()).toMatch(
          /^HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*\r\n\r\n\{"error":"request_timeout","message":"[^"]+"\}$/,
        );
      }
      // And the service still answers.
      expect((await fetch(`${http.url}/api/v1/account`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(
        200,
      );
    },
  );

  it('a connection that never sends anything is closed after the headers timeout', async () => {
    const socket = net.connect(http.port, '127.0.0.1');
    const started = performance.now();
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    await new Promise((resolve) => socket.on('close', resolve));
    const lifetime = performance.now() - started;
    expect(lifetime).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(lifetime).toBeLessThan(HEADERS_TIMEOUT_MS + 2_000);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('an idle keep-alive connection is closed after the keep-alive timeout, without an answer', async () => {
    const socket = net.connect(http.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.write(`GET /api/v1/account HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n\r\n`);
    const answered = await new Promise<number>((resolve) => {
      const check = setInterval(() => {
        if (received.includes('"balance"')) {
          clearInterval(check);
          resolve(performance.now());
        }
      }, 5);
    });
    await new Promise((resolve) => socket.on('close', resolve));
    const idle = performance.now() - answered;
    expect(idle).toBeGreaterThanOrEqual(250);
    expect(idle).toBeLessThan(2_000);
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });
});

describe('requests refused or cut short at the edge, before any operation runs', () => {
  const HEADERS_TIMEOUT_MS = 500;
  const REQUEST_TIMEOUT_MS = 1_000;
  let api: TestApi;
  let http: TestHttpServer;
  let key: string;
  let accountId: number;
  beforeAll(async () => {
    ({ api } = await createFixtureApi());
    http = await startHttpServer(api.app, {
      headersTimeoutMs: HEADERS_TIMEOUT_MS,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
    });
    ({ key, accountId } = await api.newKey(1000));
  });
  afterAll(async () => {
    await http.close();
    await api.close();
  });

  const CHARGED = '/api/v1/domain?domain=acme-outdoor.com';
  const request = (
    lines: string[],
    { method = 'GET', target = CHARGED, host = [`Host: 127.0.0.1:${http.port}`] } = {},
  ) => [`${method} ${target} HTTP/1.1`, ...host, `x-api-key: ${key}`, ...lines, '', ''].join('\r\n');
  const statusLines = (answer: RawAnswer) => answer.raw.match(/HTTP\/1\.1 \d{3} /g) ?? [];

  it(
    'a Transfer-Encoding whose final coding is not chunked: one 400 ' +
      'bad_request, the connection closed, nothing charged (RFC 9112 §6.3)',
    async () => {
      for (const coding of ['gzip', 'identity', 'deflate', 'xchunked', 'chunked, gzip']) {
        const answer = await rawRequest(http.port, request([`Transfer-Encoding: ${coding}`]));
        expectRefusal(answer, 400, 'bad_request');
        expect(statusLines(answer), coding).toHaveLength(1);
      }
      expect(await api.balanceOf(accountId)).toBe(1000);
    },
  );

  it(
    'a valid request followed in the same write by malformed bytes: its whole answer ' +
      '(charged, it was delivered), then 400 bad_request, then the connection closes',
    async () => {
      const before = await api.balanceOf(accountId);
      const answer = await rawRequest(
        http.port,
        `${request([])}GET /api/v1/account HTTP/1.1\r\nHost: 127.0.0.1\r\nX Bad: 1\r\n\r\n`,
      );
      const [delivered, refused, ...more] = parseAnswers(answer.raw);
      expect(delivered.status, answer.raw.slice(0, 300)).toBe(200);
      const validated = await validateResponse(
        'GET',
        CHARGED,
        new Response(delivered.body, { status: 200, headers: delivered.headers }),
      );
      expect(validated.body).toMatchObject({ domain: 'acme-outdoor.com', credits_charged: 3 });
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.body).error).toBe('bad_request');
      expect(refused.headers.get('connection')).toBe('close');
      expect(more).toEqual([]);
      expect(await api.balanceOf(accountId)).toBe(before - 3);
    },
  );

  it(
    "through Node, the edge's headers go out once each, lower-case: security, request id, credits, " +
      'rate limit on a charged answer and on a 401; the docs page keeps its own policy',
    async () => {
      const namesOf = (answer: RawAnswer) =>
        answer.raw
          .split('\r\n\r\n')[0]
          .split('\r\n')
          .slice(1)
          .map((line) => line.slice(0, line.indexOf(':')));
      const edge = [
        'content-security-policy',
        'cache-control',
        'x-content-type-options',
        'x-frame-options',
        'referrer-policy',
        'x-request-id',
      ];
      const charged = await rawRequest(http.port, request(['Connection: close']));
      expect(charged.status).toBe(200);
      const billed = ['x-credits-charged', 'x-credits-remaining', 'ratelimit', 'ratelimit-policy'];
      for (const name of [...edge, ...billed]) {
        expect(
          namesOf(charged).filter((line) => line === name),
          name,
        ).toEqual([name]);
      }
      expect(charged.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(charged.headers.get('x-credits-charged')).toBe('3');
      expect(Number(charged.headers.get('content-length'))).toBe(Buffer.byteLength(charged.body));

      const refused = await rawRequest(
        http.port,
        `GET ${CHARGED} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: alk_nope\r\nConnection: close\r\n\r\n`,
      );
      expect(refused.status).toBe(401);
      for (const name of edge)
        expect(
          namesOf(refused).filter((line) => line === name),
          name,
        ).toEqual([name]);
      for (const name of billed) expect(refused.headers.get(name), name).toBeNull();

      const docs = await rawRequest(http.port, request(['Connection: close'], { target: '/docs' }));
      expect(docs.status).toBe(200);
      expect(namesOf(docs).filter((line) => line.toLowerCase() === 'content-security-policy')).toHaveLength(1);
      expect(docs.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(docs.headers.get('x-content-type-options')).toBe('nosniff');
    },
  );

  it('two Host headers: 400 bad_request before any operation, free (RFC 9112 §3.2)', async () => {
    const before = await api.balanceOf(accountId);
    const answer = await rawRequest(
      http.port,
      request(['Connection: close'], { host: ['Host: 127.0.0.1', 'Host: evil.example'] }),
    );
    expectRefusal(answer, 400, 'bad_request');
    expect(await api.balanceOf(accountId)).toBe(before);
  });

  it(
    'an Expect other than 100-continue: 417 expectation_failed as ' +
      'JSON, free, connection closed; Expect: 100-continue still works',
    async () => {
      const before = await api.balanceOf(accountId);
      const refused = await rawRequest(http.port, request(['Expect: bogus']));
      expectRefusal(refused, 417, 'expectation_failed');
      expect(statusLines(refused)).toHaveLength(1);
      expect(await api.balanceOf(accountId)).toBe(before);

      const continued = await rawRequest(http.port, request(['Expect: 100-continue', 'Connection: close']));
      expect(continued.raw).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
      expect(parseAnswers(continued.raw).map((answer) => answer.status)).toEqual([200]);
      expect(await api.balanceOf(accountId)).toBe(before - 3);
    },
  );

  it('CONNECT: 405 method_not_allowed with Allow: GET, HEAD as JSON, then the connection closes', async () => {
    const answer = await rawRequest(http.port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    expectRefusal(answer, 405, 'method_not_allowed');
    expect(answer.headers.get('allow')).toBe('GET, HEAD');
    expect(JSON.parse(answer.body).message).toBe('This service does not support CONNECT.');
  });

  it(
    'a request that announces a body no operation reads is answered ' +
      'once, with Connection: close, as usual otherwise; no 408 follows',
    async () => {
      const before = await api.balanceOf(accountId);
      for (const [what, text, status] of [
        ['GET, Content-Length 1000 and no body', request(['Content-Length: 1000'], { target: '/api/v1/account' }), 200],
        ['GET, chunked and no chunk', request(['Transfer-Encoding: chunked'], { target: '/api/v1/account' }), 200],
        [
          'POST with its body',
          `${request(['Content-Length: 5'], { method: 'POST', target: '/api/v1/account' })}hello`,
          405,
        ],
        [
          'POST, Content-Length 1000 and no body',
          request(['Content-Length: 1000'], { method: 'POST', target: '/api/v1/account' }),
          405,
        ],
      ] as const) {
        const answer = await rawRequest(http.port, text);
        expect(statusLines(answer), what).toEqual([`HTTP/1.1 ${status} `]);
        expect(answer.headers.get('connection'), what).toBe('close');
        // Closed with the answer, not by the request timeout.
        expect(answer.ms, what).toBeLessThan(REQUEST_TIMEOUT_MS);
        const validated = await validateResponse(text.split(' ')[0], '/api/v1/account', asResponse(answer));
        if (status === 405) {
          expect(validated.body, what).toEqual({
            error: 'method_not_allowed',
            message: 'This path supports GET and HEAD only.',
          });
          expect(answer.headers.get('allow'), what).toBe('GET, HEAD');
        }
      }
      expect(await api.balanceOf(accountId)).toBe(before);
    },
  );

  it('HEAD carries the Content-Length the GET of the same URL sends', async () => {
    for (const target of [
      '/healthz',
      '/api/v1/account',
      '/openapi.json',
      '/openapi.yaml',
      '/docs/scalar-api-reference.js',
      '/nowhere',
      '/api/v1/advertiser?name=',
    ]) {
      const lines = ['Connection: close'];
      const get = await rawRequest(http.port, request(lines, { target }));
      const head = await rawRequest(http.port, request(lines, { method: 'HEAD', target }));
      expect(head.status, target).toBe(get.status);
      expect(Number(get.headers.get('content-length')), target).toBe(Buffer.byteLength(get.body));
      expect(head.headers.get('content-length'), target).toBe(get.headers.get('content-length'));
      expect(head.body, target).toBe('');
    }
  });

  it(
    'every refusal made before the app carries each ' + 'security header of an app answer, with the same value',
    async () => {
      const app = await rawRequest(http.port, `GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      expect(app.status).toBe(404);
      const perAnswer = new Set(['date', 'content-type', 'content-length', 'x-request-id', 'connection', 'keep-alive']);
      const security = [...app.headers].filter(([name]) => !perAnswer.has(name));
      expect(security.map(([name]) => name)).toEqual(
        expect.arrayContaining([
          'content-security-policy',
          'x-frame-options',
          'referrer-policy',
          'x-content-type-options',
          'cache-control',
        ]),
      );
      const host = `Host: 127.0.0.1:${http.port}`;
      const refusals: [string, string, number][] = [
        ['not valid HTTP', `GET /api/v1/account HTTP/1.1\r\n${host}\r\nX Bad: 1\r\n\r\n`, 400],
        ['a backslash in the path', `GET /api\\v1/account HTTP/1.1\r\n${host}\r\nConnection: close\r\n\r\n`, 400],
        ['no Host header', 'GET /api/v1/account HTTP/1.1\r\n\r\n', 400],
        ['two Host headers', `GET /api/v1/account HTTP/1.1\r\n${host}\r\n${host}\r\n\r\n`, 400],
        ['Transfer-Encoding: gzip', `GET /api/v1/account HTTP/1.1\r\n${host}\r\nTransfer-Encoding: gzip\r\n\r\n`, 400],
        [
          'headers too large',
          `GET /api/v1/account HTTP/1.1\r\n${host}\r\nX-Padding: ${'p'.repeat(70_000)}\r\n\r\n`,
          431,
        ],
        ['headers too slow', `GET /api/v1/account HTTP/1.1\r\n${host}\r\n`, 408],
        ['Expect: bogus', `GET /api/v1/account HTTP/1.1\r\n${host}\r\nExpect: bogus\r\n\r\n`, 417],
        ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 405],
      ];
      for (const [what, text, status] of refusals) {
        const answer = await rawRequest(http.port, text);
        expect(answer.status, what).toBe(status);
        for (const [name, value] of security) expect(answer.headers.get(name), `${what}: ${name}`).toBe(value);
      }
    },
  );
});
