import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { createMiddleware } from 'hono/factory';
import { bodyAsMade, setAnswerHeader } from './answer-headers.ts';
import type { AppEnv } from './app-env.ts';

/**
 * Answers compressed for clients that ask (`Accept-Encoding`, RFC 9110 §12.5.3), docs/product-rules.md
 * R16.9: zstd where this Node has it (22.15 and later), brotli, gzip. The client's q-values choose;
 * between equal ones, the order of CODINGS (zstd and brotli are smaller and cheaper than gzip).
 */
export type Coding = 'zstd' | 'br' | 'gzip';

type Level = 'answer' | 'asset';
type Compress = (body: Uint8Array, level: Level) => Promise<Uint8Array>;
type Sync = (body: Uint8Array, options: object) => Buffer;
type Pooled = (body: Uint8Array, options: object, done: (error: Error | null, result: Buffer) => void) => void;

// Node 22.15+ and 24 have zstd; Node 20 does not (its types do not know it either).
const withZstd = zlib as unknown as { zstdCompressSync?: Sync; zstdCompress?: Pooled };
const ZSTD_LEVEL = (zlib.constants as Record<string, number>).ZSTD_c_compressionLevel;

/**
 * Up to this many bytes a body is compressed on the event loop: at most about 100 µs, less than
 * handing it to the thread pool and back costs. Larger ones (a long CSV, the docs' script) go to
 * the pool, so no other request waits for them.
 */
const ON_THE_LOOP = 64 * 1024;

function compressor(sync: Sync, pooled: Pooled, options: (body: Uint8Array, level: Level) => object): Compress {
  const inPool = promisify(pooled) as (body: Uint8Array, options: object) => Promise<Buffer>;
  return async (body, level) =>
    body.byteLength <= ON_THE_LOOP ? sync(body, options(body, level)) : inPool(body, options(body, level));
}

/** The window brotli needs for this body rather than its 4 MiB default: less to set up per answer. */
const brotliWindow = (bytes: number) => Math.min(24, Math.max(16, Math.ceil(Math.log2(bytes + 1))));

/**
 * Levels: an answer is compressed once, on the request path, where speed counts more than the last
 * percent (brotli 4, gzip 6, zstd 3 are each format's fast, still-good setting); an asset once per
 * process, then served from memory, so it gets each format's high setting (brotli 9: 11 takes
 * seconds on the docs' 3.6 MB script for 10 % less).
 */
const COMPRESSORS: Partial<Record<Coding, Compress>> = {
  ...(withZstd.zstdCompressSync &&
    withZstd.zstdCompress && {
      zstd: compressor(withZstd.zstdCompressSync, withZstd.zstdCompress, (_body, level) => ({
        params: { [ZSTD_LEVEL]: level === 'answer' ? 3 : 19 },
      })),
    }),
  br: compressor(zlib.brotliCompressSync, zlib.brotliCompress as Pooled, (body, level) => ({
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: level === 'answer' ? 4 : 9,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
      [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindow(body.byteLength),
    },
  })),
  gzip: compressor(zlib.gzipSync, zlib.gzip as Pooled, (_body, level) => ({ level: level === 'answer' ? 6 : 9 })),
};

/** The codings this process can write, most preferred first. */
export const CODINGS = (['zstd', 'br', 'gzip'] as const).filter((coding) => COMPRESSORS[coding] !== undefined);

/** Below this many bytes an answer goes as it is: the saving would not pay for the work. */
export const COMPRESSION_THRESHOLD = 1024;

/** Media types that compress: JSON, CSV, YAML, HTML, JavaScript, SVG and other text. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:json|yaml|javascript|problem\+json)|image\/svg\+xml)/i;

/**
 * The coding to answer with for an `Accept-Encoding` header, or undefined for the answer as it is:
 * the highest q-value among the codings this process has (`*` standing for those not named),
 * ties to the order of CODINGS; q=0 refuses a coding.
 */
export function preferredCoding(acceptEncoding: string | undefined): Coding | undefined {
  if (acceptEncoding === undefined || acceptEncoding === '') return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    if (name === '') continue;
    let q = 1;
    for (const parameter of parameters) {
      const [key, value] = parameter.trim().split('=');
      if (key === 'q') q = Number.isFinite(Number(value)) ? Number(value) : 0;
    }
    weights.set(name, q);
  }
  let best: { coding: Coding; q: number } | undefined;
  for (const coding of CODINGS) {
    const q = weights.get(coding) ?? (coding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
    if (q > 0 && (best === undefined || q > best.q)) best = { coding, q };
  }
  return best?.coding;
}

const byteLength = (body: string | Uint8Array) =>
  typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;

/** `body` in `coding`. */
export async function compress(
  body: Uint8Array,
  coding: Coding,
  level: 'answer' | 'asset',
): Promise<Uint8Array<ArrayBuffer>> {
  // zlib's Buffers are never shared memory.
  return (await COMPRESSORS[coding]!(body, level)) as Uint8Array<ArrayBuffer>;
}

/**
 * Every answer of a compressible type and at least COMPRESSION_THRESHOLD bytes, compressed in the
 * coding the client prefers. A request that asks for none costs nothing here: the answer is not
 * read. An answer that is already encoded (the docs' assets, compressed once: see
 * `precompressedAsset`) or says `no-transform` goes as it is. A HEAD answer is measured from the
 * same compressed body (http/head-requests.ts runs outside this).
 */
export const compressAnswers = createMiddleware<AppEnv>(async (c, next) => {
  const coding = preferredCoding(c.req.header('accept-encoding'));
  if (coding === undefined) return next();
  await next();
  const res = c.res;
  if (res.status < 200 || res.status === 204 || res.status === 206 || res.status === 304) return;
  const made = bodyAsMade(res);
  // An answer too small to compress goes as the route made it: reading it back would cost more.
  if (made !== undefined && byteLength(made) < COMPRESSION_THRESHOLD) {
    setAnswerHeader(c, 'Vary', 'Accept-Encoding');
    return;
  }
  const headers = res.headers;
  if (headers.has('content-encoding') || /\bno-transform\b/i.test(headers.get('cache-control') ?? '')) return;
  if (!COMPRESSIBLE.test(headers.get('content-type') ?? '')) return;
  const body: Uint8Array<ArrayBuffer> =
    made === undefined
      ? new Uint8Array(await res.arrayBuffer())
      : typeof made === 'string'
        ? Buffer.from(made)
        : new Uint8Array(made);
  const vary = headers.get('vary');
  const compressed = body.byteLength >= COMPRESSION_THRESHOLD;
  const answer = new Response(compressed ? await compress(body, coding, 'answer') : body, {
    status: res.status,
    headers,
  });
  answer.headers.delete('content-length');
  if (compressed) answer.headers.set('content-encoding', coding);
  if (!/\baccept-encoding\b/i.test(vary ?? ''))
    answer.headers.set('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
  // Unset first: hono would copy the old answer's headers over the new one's.
  c.res = undefined;
  c.res = answer;
});
