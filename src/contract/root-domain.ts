import { domainToASCII } from 'node:url';
import punycode from 'punycode/punycode.js';
import { parse } from 'tldts';

/** Longest host name DNS can carry, in ASCII (after IDN conversion, without a trailing dot). */
const MAX_HOST_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
/** What may follow `host:` when the colon starts a port rather than ends a scheme. */
const PORT_THEN_END = /^[0-9]*(?:[/?#\\]|$)/;
/**
 * What may follow `user:` when the colon is inside user info rather than after a scheme: an `@`
 * before any `/`, `?`, `#` or `\` (`user:pass@example.com`; so never `//`).
 */
const USER_INFO_THEN_HOST = /^[^/?#\\]*@/;
/**
 * Schemes whose addresses hold an `@` themselves (`mailto:someone@example.com`): followed by one,
 * they are these schemes, not user info, so they stay invalid like every scheme but http and https.
 */
const ADDRESS_SCHEMES = new Set([
  'mailto',
  'xmpp',
  'sip',
  'sips',
  'im',
  'pres',
  'tel',
  'sms',
  'news',
  'nntp',
  'cid',
  'mid',
  'urn',
  'data',
  'javascript',
]);
/**
 * C0 controls and DEL. The URL parser silently deletes tab and newlines anywhere in its input,
 * which would turn `exa<TAB>mple.com` into `example.com`; such a value is rejected instead.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for control characters, on purpose
const CONTROL = /[\u0000-\u001f\u007f]/;
/** A host-name label after IDN conversion: letters, digits, hyphen, underscore; no hyphen at either end. */
const LABEL = /^(?!-)[a-z0-9_-]+(?<!-)$/;
const IPV4 = /^[0-9]+(?:\.[0-9]+){3}$/;

/**
 * The registrable root domain of a URL or host name, or null when it has none.
 *
 * Implements docs/product-rules.md R3.15–R3.20 (the `domain` rules of §3): the value is trimmed of Unicode white
 * space, parsed as a WHATWG URL host (Node's `URL`, `http://` assumed when no scheme is given,
 * only http and https accepted), stripped of user info, port, path, query, fragment and one
 * trailing dot; the URL parser lower-cases it and turns internationalized labels into `xn--`
 * form (UTS #46, non-transitional). The root domain is then taken from the ICANN section of the
 * Public Suffix List; private entries such as `github.io` are not suffixes.
 *
 * Null for: empty input, other schemes, IP addresses, single labels, `localhost`, bare public
 * suffixes (`co.uk`), top-level labels not in the list (`brand.con`), illegal characters and
 * hosts longer than 253 ASCII characters.
 */
export function rootDomain(input: string): string | null {
  const value = input.trim();
  if (value === '' || CONTROL.test(value)) return null;

  const url = parseHttpUrl(value);
  if (url === null) return null;

  let host = url.hostname;
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === '' || host.startsWith('[') || IPV4.test(host)) return null;
  if (host.length > MAX_HOST_LENGTH) return null;
  const labels = host.split('.');
  if (labels.some((label) => label.length > MAX_LABEL_LENGTH || !LABEL.test(label) || !isValidAceLabel(label)))
    return null;

  const info = parse(host, {
    allowPrivateDomains: false,
    extractHostname: false,
    validateHostname: false,
    detectIp: true,
  });
  // isIcann is false when no ICANN rule matched and tldts fell back to the implicit `*` rule.
  if (info.isIp || info.isIcann !== true || info.domain === null) return null;
  return info.domain;
}

/**
 * An `xn--` label must be real Punycode of a valid internationalized label. Node 20's URL parser
 * rejects `xn--zz.com`, Node 24's accepts it; checking here gives one answer on every runtime:
 * the label decodes, holds a non-ASCII character, and the decoded name maps back to this label.
 */
function isValidAceLabel(label: string): boolean {
  if (!label.startsWith('xn--')) return true;
  try {
    const decoded = punycode.decode(label.slice(4));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: it looks for control characters, on purpose
    return /[^\u0000-\u007f]/.test(decoded) && domainToASCII(decoded) === label;
  } catch {
    return false;
  }
}

/** Parses `value` as an http(s) URL, assuming `http://` when it names no scheme. */
function parseHttpUrl(value: string): URL | null {
  let candidate = value;
  const scheme = SCHEME.exec(value);
  if (scheme === null) {
    candidate = `http://${value}`;
  } else {
    const name = scheme[1].toLowerCase();
    const rest = value.slice(scheme[0].length);
    if (name !== 'http' && name !== 'https') {
      // `example.com:8080/path` is a host and a port, not the scheme `example.com`, and
      // `user:pass@example.com` is user info and a host, not the scheme `user`.
      const portOrUserInfo = PORT_THEN_END.test(rest) || (USER_INFO_THEN_HOST.test(rest) && !ADDRESS_SCHEMES.has(name));
      if (!portOrUserInfo) return null;
      candidate = `http://${value}`;
    }
  }
  try {
    const url = new URL(candidate);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}
