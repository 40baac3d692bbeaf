import { createWatchRoute } from '../../generated/routes.ts';
import { resolveRef } from './document.ts';
import { ApiError } from './errors.ts';
import { MAX_NAME_CODE_POINTS } from './parameters.ts';
import { rootDomain } from './root-domain.ts';

/**
 * What a watch's requests carry beyond the query (docs/product-rules.md §19): the watch id in the
 * path and the body of `createWatch`, checked by the schemas generated from the contract and, beyond
 * them, by the same rules as the lookups' `domain` and `name` parameters, so a target a lookup
 * refuses is refused here with the same code.
 */

/** What a watch's body asks, normalized: the root domain of a domain watch, the name of an advertiser watch. */
export interface WatchAsk {
  kind: 'domain' | 'advertiser';
  target: string;
}

/**
 * The contract's WatchId by its `pattern` (a UUID in lower case, whatever its version): the
 * generated schema's `z.uuid()` would also ask for an RFC 9562 version and variant, which the
 * contract does not, and an id the contract allows must never be a 400.
 */
const WATCH_ID = watchIdPattern();

function watchIdPattern(): RegExp {
  const schema = resolveRef({ $ref: '#/components/schemas/WatchId' });
  if (typeof schema?.pattern !== 'string') throw new Error('openapi.yaml: WatchId needs a pattern');
  return new RegExp(schema.pattern, 'u');
}

/** The `{id}` of a watch's path: the contract's WatchId (a UUID in lower case), else `400 invalid_watch_id`. */
export function watchIdParameter(given: string): string {
  if (!WATCH_ID.test(given))
    throw new ApiError(
      'invalid_watch_id',
      'The watch id in the path must be a UUID in lower case, such as 3f1d2c4e-8a7b-4c6d-9e0f-1a2b3c4d5e6f.',
    );
  return given;
}

/** The body's media type; its parameters (`; charset=utf-8`) are allowed, UTF-8 being JSON's own. */
const BODY_MEDIA_TYPE = Object.keys(createWatchRoute.request.body.content)[0]!;

/** A body longer than this cannot hold a valid watch request (a target is at most 2,048 characters). */
export const MAX_WATCH_BODY_BYTES = 16 * 1024;

/**
 * `415 unsupported_media_type`: the body is not sent as JSON, or in another charset than UTF-8
 * (docs/product-rules.md R19.3), which would be read as UTF-8 all the same.
 */
export function checkBodyMediaType(contentType: string | undefined): void {
  const [mediaType, ...parameters] = (contentType ?? '').split(';').map((part) => part.trim().toLowerCase());
  const charset = parameters.find((parameter) => parameter.startsWith('charset='))?.slice('charset='.length);
  if (mediaType !== BODY_MEDIA_TYPE || (charset !== undefined && charset.replaceAll('"', '') !== 'utf-8'))
    throw new ApiError(
      'unsupported_media_type',
      `Send the body as JSON in UTF-8, with "Content-Type: ${BODY_MEDIA_TYPE}".`,
    );
}

/**
 * The body as UTF-8 text, read no further than MAX_WATCH_BODY_BYTES: a longer body (by its
 * Content-Length or as it arrives) or bytes that are not UTF-8 are `400 invalid_body` (R19.3)
 * before more is read, so no body holds memory beyond that.
 */
export async function watchBodyText(request: Request): Promise<string> {
  if (Number(request.headers.get('content-length') ?? 0) > MAX_WATCH_BODY_BYTES) throw invalidBody();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_WATCH_BODY_BYTES) {
      await reader.cancel();
      throw invalidBody();
    }
    chunks.push(value);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw invalidBody();
  }
}

const invalidBody = () =>
  new ApiError(
    'invalid_body',
    'The body must be a JSON object with the fields "kind" and "target" only, ' +
      'such as {"kind":"domain","target":"example.com"}.',
  );

/** The kinds of watch, in the contract's order: the `kind` of each of WatchRequest's forms. */
const KINDS: readonly string[] = resolveRef({ $ref: '#/components/schemas/WatchRequest' }).oneOf.map(
  (form: unknown) => resolveRef(form).properties.kind.const,
);
const MAX_TARGET_LENGTH = 2048;

/**
 * The body of `createWatch` (docs/product-rules.md R19.3 to R19.5): a JSON object with `kind` and
 * `target` only. A domain watch's target is reduced to its root domain exactly like the `domain`
 * parameter (`missing_domain`, `invalid_domain`); an advertiser watch's target is a name under the
 * `name` parameter's rules, byte for byte (`missing_name`, `invalid_name`).
 */
export function watchAsk(text: string): WatchAsk {
  if (Buffer.byteLength(text) > MAX_WATCH_BODY_BYTES) throw invalidBody();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalidBody();
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalidBody();
  const fields = Object.keys(body);
  if (fields.length !== 2 || !('kind' in body) || !('target' in body)) throw invalidBody();
  const { kind, target } = body as { kind: unknown; target: unknown };
  if (typeof kind !== 'string' || !KINDS.includes(kind))
    throw new ApiError('invalid_kind', `The field "kind" must be one of ${KINDS.map((k) => `"${k}"`).join(', ')}.`);
  if (typeof target !== 'string') throw invalidBody();
  return watchTarget(kind as WatchAsk['kind'], target);
}

/** A watch's target under its kind's rule (R19.4, R19.5), normalized; the API and the account page share it. */
export function watchTarget(kind: WatchAsk['kind'], target: string): WatchAsk {
  return kind === 'domain' ? { kind, target: domainTarget(target) } : { kind, target: nameTarget(target) };
}

function domainTarget(target: string): string {
  if (target.trim() === '')
    throw new ApiError('missing_domain', 'The "target" of a domain watch is required and must not be empty.');
  const domain = target.length > MAX_TARGET_LENGTH ? null : rootDomain(target);
  if (domain === null)
    throw new ApiError(
      'invalid_domain',
      'The "target" of a domain watch must name a host with a registrable domain, such as example.co.uk.',
    );
  return domain;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function nameTarget(target: string): string {
  if (target.trim() === '')
    throw new ApiError('missing_name', 'The "target" of an advertiser watch is required and must not be empty.');
  // Text the database cannot hold as it was given (a NUL, half a surrogate pair) names no advertiser.
  if ([...target].length > MAX_NAME_CODE_POINTS || LONE_SURROGATE.test(target) || target.includes('\u0000'))
    throw new ApiError(
      'invalid_name',
      `The "target" of an advertiser watch must be an advertiser name of at most ${MAX_NAME_CODE_POINTS} characters.`,
    );
  return target;
}
