/**
 * The query string, decoded strictly. Hono's own decoding keeps a malformed or non-UTF-8
 * percent-escape as literal text (`name=%FF` becomes the four characters `%FF`), which would turn
 * an encoding mistake into a charged lookup of a name the caller never meant. Here every name and
 * value is decoded as RFC 3986 percent-encoded UTF-8 (with `+` as a space, as HTML forms send it),
 * and a value that is not is marked malformed, so the parameter rules can refuse it for free.
 */
export interface QueryParameter {
  /** The decoded parameter name; a name that does not decode is kept as sent (it matches no rule). */
  name: string;
  /** The decoded value, or `null` when it is not valid percent-encoded UTF-8. */
  value: string | null;
  /** The value as sent, before decoding. */
  raw: string;
}

/** `decodeURIComponent` throws on a `%` without two hex digits and on bytes that are not UTF-8. */
function strictDecode(text: string): string | null {
  const plus = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!plus.includes('%')) return plus;
  try {
    return decodeURIComponent(plus);
  } catch {
    return null;
  }
}

/** The request target's query (between `?` and `#`), or '' when there is none. */
export function rawQuery(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return '';
  const end = url.indexOf('#', start);
  return url.slice(start + 1, end === -1 ? undefined : end);
}

/** Every parameter of the query, in order; `a&b=` gives `a` and `b`, both with the value ''. */
export function parseQuery(url: string): QueryParameter[] {
  const query = rawQuery(url);
  if (query === '') return [];
  const parameters: QueryParameter[] = [];
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const raw = equals === -1 ? '' : pair.slice(equals + 1);
    parameters.push({ name: strictDecode(rawName) ?? rawName, value: strictDecode(raw), raw });
  }
  return parameters;
}

const UTF8 = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const ESCAPE = /%[0-9A-Fa-f]{2}/y;

/**
 * Decodes what can be decoded and keeps the rest: each `%XX` becomes its byte, bytes that are not
 * UTF-8 become U+FFFD, a `%` without two hex digits stays as it is, `+` is a space. For searching
 * text that was malformed on purpose or by mistake, never for reading a parameter.
 */
export function lenientDecode(text: string): string {
  const plus = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!plus.includes('%')) return plus;
  let decoded = '';
  let bytes: number[] = [];
  const flush = () => {
    if (bytes.length === 0) return;
    decoded += UTF8.decode(Uint8Array.from(bytes));
    bytes = [];
  };
  for (let i = 0; i < plus.length; i++) {
    ESCAPE.lastIndex = i;
    if (ESCAPE.test(plus)) {
      bytes.push(Number.parseInt(plus.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      flush();
      decoded += plus[i];
    }
  }
  flush();
  return decoded;
}

/** The texts of one parameter that a search of the query must cover. */
export interface SearchableParameter {
  names: string[];
  values: string[];
}

/**
 * Every parameter of the query as the texts a search of it must cover, however malformed it is:
 * a name or value that decodes strictly (`parseQuery`) is that text alone; one that does not is
 * both the text as sent and its lenient decoding (`%61lk_…%FF` is searched as `alk_…\uFFFD` too).
 */
export function searchableQuery(url: string): SearchableParameter[] {
  const query = rawQuery(url);
  if (query === '') return [];
  const texts = (raw: string) => {
    const strict = strictDecode(raw);
    return strict !== null ? [strict] : [raw, lenientDecode(raw)];
  };
  const parameters: SearchableParameter[] = [];
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const raw = equals === -1 ? '' : pair.slice(equals + 1);
    parameters.push({ names: texts(rawName), values: texts(raw) });
  }
  return parameters;
}
