import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { COMPRESSION_THRESHOLD, type Coding, compress, preferredCoding } from './compression.ts';

/**
 * An answer that is the same for every request (the contract, the docs' script and icon),
 * docs/product-rules.md R16.9: compressed at most once per coding and kept, and validated by its
 * `ETag`, so a client that has it gets `304 Not Modified` and no body. Each coding is its own
 * representation with its own strong tag (RFC 9110 §8.8.3); `If-None-Match` is compared weakly
 * (§13.1.2), so a `W/` added by a proxy still matches.
 */
export type StaticAsset = (c: Context) => Promise<Response>;

export function staticAsset(
  body: () => Uint8Array<ArrayBuffer> | string,
  headers: { 'Content-Type': string; 'Cache-Control': string },
): StaticAsset {
  let identity: { bytes: Uint8Array<ArrayBuffer>; tag: string } | undefined;
  const encoded = new Map<Coding, Promise<Uint8Array<ArrayBuffer>>>();
  const plain = () => {
    if (identity) return identity;
    const value = body();
    const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
    identity = { bytes, tag: createHash('sha256').update(bytes).digest('base64url').slice(0, 27) };
    return identity;
  };
  return async (c) => {
    const { bytes, tag } = plain();
    const coding =
      bytes.byteLength >= COMPRESSION_THRESHOLD ? preferredCoding(c.req.header('accept-encoding')) : undefined;
    const etag = coding === undefined ? `"${tag}"` : `"${tag}-${coding}"`;
    const common = { ...headers, ETag: etag, Vary: 'Accept-Encoding' };
    if (matches(c.req.header('if-none-match'), etag)) return c.body(null, 304, common);
    if (coding === undefined) return c.body(bytes, 200, common);
    let pending = encoded.get(coding);
    if (pending === undefined) {
      pending = compress(bytes, coding, 'asset');
      encoded.set(coding, pending);
    }
    return c.body(await pending, 200, { ...common, 'Content-Encoding': coding });
  };
}

/** Whether an `If-None-Match` header names `etag` (or is `*`), compared weakly. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((listed) => listed.trim().replace(/^W\//, '') === etag);
}
