import dns from 'node:dns';
import { isIP } from 'node:net';

/** An address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Turns a host name into its addresses; fails when it has none. */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system's resolver, as Node connects by default (every address, in the resolver's order). */
export const systemResolve: Resolve = async (hostname) =>
  (await dns.promises.lookup(hostname, { all: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

type Range = readonly [network: string, prefix: number, kind: string];

/**
 * IPv4 ranges that are not public (the IANA special-purpose registry): the service's own host and
 * networks, the cloud metadata address (link-local), and what is never routed on the Internet.
 */
const IPV4_RANGES: readonly Range[] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved (6to4 relay)'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

/**
 * IPv6 forms that carry an IPv4 address in their bits, and where: the address reached is (or is
 * tunnelled or translated to) that IPv4 address, so it is judged as that address.
 */
const IPV6_EMBEDDING: readonly (readonly [network: string, prefix: number, form: string, shift: bigint])[] = [
  ['::ffff:0:0', 96, 'IPv4-mapped', 0n],
  ['::ffff:0:0:0', 96, 'IPv4-translated', 0n],
  ['64:ff9b::', 96, 'NAT64', 0n],
  ['2002::', 16, '6to4', 80n],
  // IPv4-compatible (deprecated): after :: and ::1, which are judged as themselves.
  ['::', 96, 'IPv4-compatible', 0n],
];

/** The two IPv6 addresses inside the IPv4-compatible range that are judged as themselves. */
const IPV6_SPECIAL: readonly Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
];

/** IPv6 ranges that are not public; only 2000::/3 is global unicast, and not all of it. */
const IPV6_RANGES: readonly Range[] = [
  ['64:ff9b:1::', 48, 'private (local-use NAT64)'],
  ['100::', 64, 'reserved (discard-only)'],
  ['fc00::', 7, 'private (unique local)'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
  ['2001::', 32, 'reserved (Teredo)'],
  ['2001:10::', 28, 'reserved (ORCHID)'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
];
const GLOBAL_UNICAST: Range = ['2000::', 3, 'global unicast'];

function ipv4Value(address: string): bigint {
  return address.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

function ipv4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => Number((value >> shift) & 0xffn)).join('.');
}

/** The 128 bits of a valid IPv6 address (zone index dropped, a dotted IPv4 tail read). */
function ipv6Value(address: string): bigint {
  let text = address.split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4Value(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups =
    tail === undefined
      ? headGroups
      : [...headGroups, ...Array(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  return groups.reduce((value, group) => (value << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}

function within(value: bigint, bits: bigint, [network, prefix]: Range | readonly [string, number], v6: boolean) {
  const base = v6 ? ipv6Value(network) : ipv4Value(network);
  const shift = bits - BigInt(prefix);
  return value >> shift === base >> shift;
}

/** "a private address", "an unspecified address". */
const anAddress = (kind: string) => `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} address`;

function ipv4Kind(value: bigint): string | null {
  return IPV4_RANGES.find((range) => within(value, 32n, range, false))?.[2] ?? null;
}

/**
 * Why a webhook may not reach `address` (an IPv4 or IPv6 address), as a sentence; null when it is
 * public. An IPv4-mapped IPv6 address is judged as the IPv4 address it carries; the other forms
 * that embed one (translated, compatible, NAT64, 6to4) are refused whatever they carry.
 */
export function whyNotPublic(address: string): string | null {
  const family = isIP(address.split('%')[0]);
  if (family === 4) {
    const kind = ipv4Kind(ipv4Value(address));
    return kind && `${address} is ${anAddress(kind)}`;
  }
  if (family !== 6) return `${address} is not an IP address`;
  const value = ipv6Value(address);
  const named = IPV6_SPECIAL.find((range) => within(value, 128n, range, true));
  if (named) return `${address} is ${anAddress(named[2])}`;
  for (const [network, prefix, form, shift] of IPV6_EMBEDDING) {
    if (!within(value, 128n, [network, prefix], true)) continue;
    const v4 = (value >> shift) & 0xffffffffn;
    const kind = ipv4Kind(v4);
    if (kind) return `${address} leads to ${ipv4Text(v4)} (${form}), ${anAddress(kind)}`;
    // Only the mapped form is an IPv4 address itself; the others go through a translator or relay
    // of someone's network (R14.13), so a webhook names the receiver's own address instead.
    return form === 'IPv4-mapped' ? null : `${address} leads to ${ipv4Text(v4)} through ${form}: use ${ipv4Text(v4)}`;
  }
  const range = IPV6_RANGES.find((candidate) => within(value, 128n, candidate, true));
  if (range) return `${address} is ${anAddress(range[2])}`;
  if (!within(value, 128n, GLOBAL_UNICAST, true)) return `${address} is ${anAddress('reserved')}`;
  return null;
}

/**
 * One spelling of an address, so a limit per address counts it once: IPv4 as it is, an
 * IPv4-mapped IPv6 address as the IPv4 address it carries (`::ffff:5db8:d822` and
 * `::ffff:93.184.216.34` are `93.184.216.34`), any other IPv6 address compressed in lower case
 * without its zone; a host name, lower-cased.
 */
export function canonicalAddress(address: string): string {
  const bare = address.split('%')[0].toLowerCase();
  if (isIP(bare) !== 6) return bare;
  const value = ipv6Value(bare);
  if (value >> 32n === 0xffffn) return ipv4Text(value & 0xffffffffn);
  return new URL(`http://[${bare}]/`).hostname.slice(1, -1);
}

/** Where a webhook's host may be reached, and the addresses it resolved to that it may not. */
export interface ReceiverAddresses {
  /** Public addresses (every address when the operator allows private ones), in the resolver's order. */
  reachable: ResolvedAddress[];
  /** Why each other address is refused, as whyNotPublic says it. */
  refused: string[];
}

/**
 * The addresses a post to `host` (a name, or an IP address without brackets) may connect to: the
 * address itself, or what the name resolves to now. Throws when the name does not resolve.
 */
export async function receiverAddresses(
  host: string,
  { resolve = systemResolve, allowPrivateAddresses = false }: { resolve?: Resolve; allowPrivateAddresses?: boolean },
): Promise<ReceiverAddresses> {
  const family = isIP(host);
  const addresses = family === 0 ? await resolve(host) : [{ address: host, family: family as 4 | 6 }];
  const result: ReceiverAddresses = { reachable: [], refused: [] };
  for (const resolved of addresses) {
    const refusal = allowPrivateAddresses ? null : whyNotPublic(resolved.address);
    if (refusal) result.refused.push(refusal);
    else result.reachable.push(resolved);
  }
  return result;
}

/** How long saving a webhook waits for its host name to resolve. */
const SAVE_RESOLVE_TIMEOUT_MS = 5_000;

/** What a webhook URL meets when it is saved: fine, refused (and why), or not resolvable now. */
export type ReceiverCheck =
  | { ok: true }
  /** `byName`: the URL names a host that resolves to the refused address. */
  | { refused: string; byName: boolean }
  | { unresolved: string };

/**
 * The check of a webhook URL on save (docs/product-rules.md R14.14): refused when its host is, or
 * resolves to, any address a post may not reach; a name that does not resolve now is let through
 * (its owner may be setting it up), the posts checking it again.
 */
export async function checkReceiver(
  url: URL,
  options: { resolve?: Resolve; allowPrivateAddresses?: boolean },
): Promise<ReceiverCheck> {
  if (options.allowPrivateAddresses) return { ok: true };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let timer: NodeJS.Timeout | undefined;
  try {
    const { refused } = await Promise.race([
      receiverAddresses(host, options),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer in time')), SAVE_RESOLVE_TIMEOUT_MS);
      }),
    ]);
    return refused.length > 0 ? { refused: refused[0], byName: isIP(host) === 0 } : { ok: true };
  } catch (error) {
    return { unresolved: (error as NodeJS.ErrnoException).code ?? (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
