// @module-tag database-free
// @module-tag runtime
import { OpenAPIHono } from '@hono/zod-openapi';
import { afterAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { bodyAsMade } from '../../src/http/answer-headers.ts';
import type { AppEnv } from '../../src/http/app-env.ts';
import { startHttpServer, type TestHttpServer } from '../support/http.ts';

describe('an answer as the route made it', () => {
  let server: TestHttpServer | undefined;
  afterAll(() => server?.close());

  it('served by Node, the body of a c.json, c.text or bytes answer is read as made; a stream is not', async () => {
    const seen: Record<string, string | Uint8Array | undefined> = {};
    const app = new OpenAPIHono<AppEnv>();
    app.use('*', async (c, next) => {
      await next();
      seen[c.req.path] = bodyAsMade(c.res);
    });
    app.get('/json', (c) => c.json({ advertiser: 'Ünïcode Ltd', credits_charged: 1 }, 200));
    app.get('/text', (c) => c.text('plain'));
    app.get('/bytes', (c) => c.body(new Uint8Array([1, 2, 3])));
    app.get('/stream', (c) => c.body(new Blob(['streamed']).stream()));
    server = await startHttpServer(app as unknown as App);
    for (const path of ['/json', '/text', '/bytes', '/stream'])
      expect((await fetch(`${server.url}${path}`)).ok).toBe(true);

    // If an update of the HTTP adapter keeps answers otherwise, these fail: every compressed or
    // idempotent answer would then be read back, slower (docs/benchmarks.md).
    expect(seen['/json']).toBe('{"advertiser":"Ünïcode Ltd","credits_charged":1}');
    expect(seen['/text']).toBe('plain');
    expect([...(seen['/bytes'] as Uint8Array)]).toEqual([1, 2, 3]);
    expect(seen['/stream']).toBeUndefined();
  });
});
