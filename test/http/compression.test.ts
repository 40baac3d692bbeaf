// @module-tag runtime
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODINGS, COMPRESSION_THRESHOLD, preferredCoding } from '../../src/http/compression.ts';
import { ingestObservations } from '../../src/ingest/index.ts';
import type { TestApi } from '../support/api.ts';
import { createFixtureApi, NOW } from '../support/fixture.ts';
import { startHttpServer, type TestHttpServer } from '../support/http.ts';

/** A brand domain with 60 advertisers: its brand-bid report is several kilobytes of JSON. */
const BRAND = 'compressible-brand.com';
const CROWD = Array.from({ length: 60 }, (_, i) => ({
  creative_id: `z${i}`,
  advertiser_id: `AR9${String(i).padStart(3, '0')}`,
  advertiser_name: `Compressible Advertiser ${i}`,
  country: 'DE',
  landing_url: `https://${BRAND}/p${i}`,
  seen_on: '2026-11-03',
}));

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request through the real HTTP server, its body as it came over the wire (not decoded). */
function get(server: TestHttpServer, path: string, headers: Record<string, string>, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.url}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

/** An independent decoder for each coding: Node's own. */
function decode(coding: string | undefined, body: Buffer): string {
  if (coding === 'br') return zlib.brotliDecompressSync(body).toString('utf8');
  if (coding === 'gzip') return zlib.gunzipSync(body).toString('utf8');
  if (coding === 'zstd') {
    const { zstdDecompressSync } = zlib as unknown as { zstdDecompressSync: (b: Buffer) => Buffer };
    return zstdDecompressSync(body).toString('utf8');
  }
  expect(coding).toBeUndefined();
  return body.toString('utf8');
}

describe('Accept-Encoding: the coding a client prefers', () => {
  it.each([
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0.1', 'gzip'],
    ['*', CODINGS[0]],
    ['br;q=0, *;q=0.5', CODINGS[0] === 'zstd' ? 'zstd' : 'gzip'],
    ['identity', undefined],
    ['deflate', undefined],
    ['gzip;q=0, br;q=0', undefined],
    ['', undefined],
    [' , ;q=1, BR ', 'br'],
  ])('%j: %s', (header, coding) => {
    expect(preferredCoding(header)).toBe(coding);
  });
});

describe('compressed answers (R16.9)', () => {
  let api: TestApi;
  let key: string;
  let server: TestHttpServer;
  beforeAll(async () => {
    ({ api, key } = await createFixtureApi((sql) => ingestObservations(sql, CROWD, { today: NOW })));
    server = await startHttpServer(api.app);
  });
  afterAll(async () => {
    await server.close();
    await api.close();
  });

  for (const coding of CODINGS) {
    it(`a large JSON or CSV answer in ${coding}: the same bytes once decoded, smaller, billed the same`, async () => {
      const { key: own, accountId } = await api.newKey(1_000);
      const auth = { authorization: `Bearer ${own}` };
      for (const accept of ['application/json', 'text/csv']) {
        const path = `/api/v1/brandbid?domain=${BRAND}`;
        const plain = await get(server, path, { ...auth, accept });
        const packed = await get(server, path, { ...auth, accept, 'accept-encoding': `${coding}, identity;q=0.5` });
        expect([plain.status, packed.status]).toEqual([200, 200]);
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(packed.headers['content-encoding']).toBe(coding);
        expect(packed.headers.vary).toMatch(/accept-encoding/i);
        expect(Number(packed.headers['content-length'])).toBe(packed.body.length);
        expect(packed.body.length).toBeLessThan(plain.body.length / 3);
        const [one, two] = [plain, packed].map((answer) => decode(answer.headers['content-encoding'], answer.body));
        // The only difference: the balance after each call.
        const remaining = (answer: Raw) => Number(answer.headers['x-credits-remaining']);
        expect(remaining(plain) - remaining(packed)).toBe(60);
        const same = (text: string) => text.replace(/"credits_remaining":\d+/, '');
        expect(same(two)).toBe(same(one));
        expect(packed.headers['x-credits-charged']).toBe('60');
      }
      expect(await api.balanceOf(accountId)).toBe(1_000 - 4 * 60);
      expect(await api.ledgerSum(accountId)).toBe(await api.balanceOf(accountId));
    });
  }

  it('an answer under the threshold, one a client asked in no coding it has, and HEAD', async () => {
    const auth = { authorization: `Bearer ${key}` };
    const small = await get(server, '/api/v1/account', { ...auth, 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.body.length).toBeLessThan(COMPRESSION_THRESHOLD);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toBe('Accept-Encoding');
    expect(JSON.parse(small.body.toString('utf8')).balance).toBeTypeOf('number');

    const path = `/api/v1/brandbid?domain=${BRAND}`;
    const unknown = await get(server, path, { ...auth, 'accept-encoding': 'deflate, compress' });
    expect(unknown.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(unknown.body.toString('utf8')).advertisers).toHaveLength(60);

    // HEAD carries the GET's headers: the compressed length, no body.
    const head = await get(server, path, { ...auth, 'accept-encoding': 'gzip' }, 'HEAD');
    const getAnswer = await get(server, path, { ...auth, 'accept-encoding': 'gzip' });
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.body.length).toBe(0);
    expect(head.headers['content-length']).toBe(String(getAnswer.body.length));
  });

  it('an Idempotency-Key retry replays the same answer, compressed as its own request asks', async () => {
    const { key: own, accountId } = await api.newKey(1_000);
    const headers = { authorization: `Bearer ${own}`, 'idempotency-key': 'compressed-retry-1' };
    const path = `/api/v1/brandbid?domain=${BRAND}`;
    const first = await get(server, path, { ...headers, 'accept-encoding': 'gzip' });
    const retry = await get(server, path, { ...headers, 'accept-encoding': 'br' });
    const plain = await get(server, path, headers);
    expect([first.headers['content-encoding'], retry.headers['content-encoding']]).toEqual(['gzip', 'br']);
    expect(decode('br', retry.body)).toBe(decode('gzip', first.body));
    expect(plain.body.toString('utf8')).toBe(decode('gzip', first.body));
    expect(await api.balanceOf(accountId)).toBe(1_000 - 60);
  });

  it('the contract and the docs script: compressed once, an ETag per coding, 304 when the client has it', async () => {
    for (const [path, cacheControl] of [
      ['/openapi.json', 'no-cache'],
      ['/openapi.yaml', 'no-cache'],
      ['/docs/scalar-api-reference.js', 'public, max-age=86400'],
    ] as const) {
      const plain = await get(server, path, {});
      const br = await get(server, path, { 'accept-encoding': 'br' });
      const gzip = await get(server, path, { 'accept-encoding': 'gzip' });
      for (const answer of [plain, br, gzip]) {
        expect(answer.status, path).toBe(200);
        expect(answer.headers['cache-control'], path).toBe(cacheControl);
        expect(answer.headers.vary, path).toBe('Accept-Encoding');
        expect(answer.headers.etag, path).toMatch(/^"[A-Za-z0-9_-]+"$/);
      }
      expect(new Set([plain, br, gzip].map((answer) => answer.headers.etag)).size, path).toBe(3);
      expect(decode('br', br.body), path).toBe(plain.body.toString('utf8'));
      expect(decode('gzip', gzip.body), path).toBe(plain.body.toString('utf8'));
      expect(br.body.length, path).toBeLessThan(plain.body.length / 3);

      // A second visit with the tag it has: 304, no body; a weak form of the tag matches too.
      const again = await get(server, path, { 'accept-encoding': 'br', 'if-none-match': `W/${br.headers.etag}` });
      expect(again.status, path).toBe(304);
      expect(again.body.length, path).toBe(0);
      expect(again.headers.etag, path).toBe(br.headers.etag);
      // The tag of another coding is another representation: the whole answer.
      const other = await get(server, path, { 'accept-encoding': 'br', 'if-none-match': gzip.headers.etag! });
      expect(other.status, path).toBe(200);
      expect(other.body.equals(br.body), path).toBe(true);
    }
  });

  it('the docs page is compressed too, and stays no-store (its script nonce is new each time)', async () => {
    const page = await get(server, '/docs', { 'accept-encoding': 'gzip' });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(decode('gzip', page.body)).toContain('<script nonce=');
  });
});
