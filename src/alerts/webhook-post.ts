import dns from 'node:dns';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

/** How long one post may take, connection included, before it counts as failed. */
const POST_TIMEOUT_MS = 10_000;

/** The longest answer body read (only its status matters). */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Addresses a customer's webhook URL must not reach: the service's own host and network, and the
 * cloud metadata address. Checked on the address actually connected to (in `lookup`), so a name
 * that resolves to one, or is made to resolve to one later, is refused too.
 */
const PRIVATE_NETWORKS = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE_NETWORKS.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['::ffff:0:0', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE_NETWORKS.addSubnet(network, prefix, 'ipv6');

export interface WebhookPostOptions {
  /** Reach loopback and private addresses too (tests, and a receiver on the operator's own network). */
  allowPrivateAddresses?: boolean;
  /** Certificate authorities to trust instead of the system's (tests with a self-signed receiver). */
  ca?: string | Buffer;
}

export interface WebhookAnswer {
  /** The receiver's HTTP status; null when it did not answer. */
  status: number | null;
  /** Why the post failed; null when the receiver answered 2xx. */
  error: string | null;
}

/** Posts one JSON body over HTTPS; redirects are not followed (a 3xx counts as failed). */
export function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  { allowPrivateAddresses = false, ca }: WebhookPostOptions = {},
): Promise<WebhookAnswer> {
  return new Promise((resolve) => {
    const target = new URL(url);
    if (target.protocol !== 'https:') return resolve({ status: null, error: 'the URL is not https' });
    const host = target.hostname.replace(/^\[|\]$/g, '');
    if (!allowPrivateAddresses && isIP(host) !== 0 && isPrivate(host))
      return resolve({ status: null, error: `${host} is a private address` });
    const request = https.request(
      target,
      {
        method: 'POST',
        // A connection per post: a kept-alive one the receiver closed meanwhile would fail a post
        // it may have received, and the retry would deliver it twice.
        agent: false,
        headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers },
        timeout: POST_TIMEOUT_MS,
        ...(ca !== undefined && { ca }),
        lookup: (hostname, options, callback) =>
          dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
            if (error) return callback(error, '', 0);
            const allowed = addresses.filter(({ address }) => allowPrivateAddresses || !isPrivate(address));
            if (allowed.length === 0) return callback(new Error(`${hostname} resolves to a private address`), '', 0);
            // Node asks for every address when it races IPv4 and IPv6 (autoSelectFamily), else for one.
            if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, allowed);
            callback(null, allowed[0].address, allowed[0].family);
          }),
      },
      (response) => {
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) response.destroy();
        });
        response.on('close', () => {
          const status = response.statusCode ?? null;
          const ok = status !== null && status >= 200 && status < 300;
          resolve({ status, error: ok ? null : `the endpoint answered ${status}` });
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${POST_TIMEOUT_MS} ms`)));
    request.on('error', (error) => resolve({ status: null, error: error.message.slice(0, 500) }));
    request.end(body);
  });
}

function isPrivate(address: string): boolean {
  return PRIVATE_NETWORKS.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}
