// @module-tag database-free
// @module-tag runtime
import net from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkReceiver, receiverAddresses, whyNotPublic } from '../../src/alerts/receiver-addresses.ts';
import { postWebhook } from '../../src/alerts/webhook-post.ts';
import { fakeNetwork } from '../support/fake-network.ts';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver.ts';

const PUBLIC_V4 = '93.184.216.34';
const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

/** Addresses a webhook may not reach (docs/product-rules.md R14.13), with why, as the post says it. */
const REFUSED: [address: string, why: string][] = [
  ['127.0.0.1', '127.0.0.1 is a loopback address'],
  ['10.0.0.1', '10.0.0.1 is a private address'],
  ['172.16.5.4', '172.16.5.4 is a private address'],
  ['192.168.1.1', '192.168.1.1 is a private address'],
  ['169.254.169.254', '169.254.169.254 is a link-local address'],
  ['100.64.0.1', '100.64.0.1 is a shared (carrier-grade NAT) address'],
  ['0.0.0.0', '0.0.0.0 is an unspecified address'],
  ['224.0.0.1', '224.0.0.1 is a multicast address'],
  ['255.255.255.255', '255.255.255.255 is a reserved address'],
  ['192.0.2.1', '192.0.2.1 is a documentation address'],
  ['198.18.0.1', '198.18.0.1 is a benchmarking address'],
  ['::', ':: is an unspecified address'],
  ['::1', '::1 is a loopback address'],
  ['::ffff:127.0.0.1', '::ffff:127.0.0.1 leads to 127.0.0.1 (IPv4-mapped), a loopback address'],
  ['::ffff:10.0.0.1', '::ffff:10.0.0.1 leads to 10.0.0.1 (IPv4-mapped), a private address'],
  ['::ffff:a9fe:a9fe', '::ffff:a9fe:a9fe leads to 169.254.169.254 (IPv4-mapped), a link-local address'],
  ['::ffff:0:7f00:1', '::ffff:0:7f00:1 leads to 127.0.0.1 (IPv4-translated), a loopback address'],
  ['::7f00:1', '::7f00:1 leads to 127.0.0.1 (IPv4-compatible), a loopback address'],
  ['::192.168.0.1', '::192.168.0.1 leads to 192.168.0.1 (IPv4-compatible), a private address'],
  ['64:ff9b::7f00:1', '64:ff9b::7f00:1 leads to 127.0.0.1 (NAT64), a loopback address'],
  ['64:ff9b::10.1.2.3', '64:ff9b::10.1.2.3 leads to 10.1.2.3 (NAT64), a private address'],
  ['64:ff9b:1::808:808', '64:ff9b:1::808:808 is a private (local-use NAT64) address'],
  ['2002:7f00:1::', '2002:7f00:1:: leads to 127.0.0.1 (6to4), a loopback address'],
  ['2002:a9fe:a9fe::1', '2002:a9fe:a9fe::1 leads to 169.254.169.254 (6to4), a link-local address'],
  ['64:ff9b::808:808', '64:ff9b::808:808 leads to 8.8.8.8 through NAT64: use 8.8.8.8'],
  ['2002:808:808::1', '2002:808:808::1 leads to 8.8.8.8 through 6to4: use 8.8.8.8'],
  ['::808:808', '::808:808 leads to 8.8.8.8 through IPv4-compatible: use 8.8.8.8'],
  ['fec0::1', 'fec0::1 is a site-local address'],
  ['100::1', '100::1 is a reserved (discard-only) address'],
  ['fc00::1', 'fc00::1 is a private (unique local) address'],
  ['fd12:3456::1', 'fd12:3456::1 is a private (unique local) address'],
  ['fe80::1', 'fe80::1 is a link-local address'],
  ['fe80::1%eth0', 'fe80::1%eth0 is a link-local address'],
  ['ff02::1', 'ff02::1 is a multicast address'],
  ['2001:db8::1', '2001:db8::1 is a documentation address'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:0:4136:e378:8000:63bf:3fff:fdd2 is a reserved (Teredo) address'],
  ['3fff::1', '3fff::1 is a documentation address'],
  ['5f00::1', '5f00::1 is a reserved address'],
];

/** Addresses a webhook may reach: public ones, and IPv6 forms that lead to a public IPv4 address. */
const ALLOWED = [
  PUBLIC_V4,
  '8.8.8.8',
  '1.1.1.1',
  '172.32.0.1',
  '100.128.0.1',
  PUBLIC_V6,
  '2001:4860:4860::8888',
  '::ffff:8.8.8.8',
];

describe('which addresses a webhook may reach', () => {
  it.each(REFUSED)('refused: %s', (address, why) => {
    expect(whyNotPublic(address)).toBe(why);
  });
  it.each(ALLOWED)('allowed: %s', (address) => {
    expect(whyNotPublic(address)).toBeNull();
  });
  it('a name is judged by every address it resolves to; the operator may allow private ones', async () => {
    const resolve = async () => [
      { address: '10.0.0.1', family: 4 as const },
      { address: PUBLIC_V4, family: 4 as const },
    ];
    expect(await receiverAddresses('mixed.example.com', { resolve })).toEqual({
      reachable: [{ address: PUBLIC_V4, family: 4 }],
      refused: ['10.0.0.1 is a private address'],
    });
    expect((await receiverAddresses('mixed.example.com', { resolve, allowPrivateAddresses: true })).refused).toEqual(
      [],
    );
  });
});

/**
 * Posts with the default configuration (no private addresses), through an injected resolver and
 * connect function: the connection made for a public address reaches the local receiver, whose
 * certificate is made for that address or name, so no packet leaves the machine.
 */
describe('webhook posts reach public receivers, by address and by name, and nothing else', () => {
  let receiver: HttpsReceiver;
  beforeAll(async () => {
    receiver = await startHttpsReceiver({
      alsoNamed: [PUBLIC_V4, PUBLIC_V6, 'hooks.example.com', 'v6.example.com', 'mixed.example.com'],
    });
  });
  afterAll(() => receiver.close());

  const network = () =>
    fakeNetwork(
      {
        'hooks.example.com': ['8.8.8.8'],
        'v6.example.com': [PUBLIC_V6],
        'mixed.example.com': ['10.0.0.1', '::ffff:127.0.0.1', PUBLIC_V4],
        'inside.example.com': ['10.0.0.1', '::ffff:127.0.0.1', '64:ff9b::7f00:1'],
        'rebound.example.com': ['127.0.0.1'],
        'empty.example.com': [],
      },
      receiver.port,
    );

  it.each([
    [`https://${PUBLIC_V4}/hooks/balance`, `${PUBLIC_V4}:443`],
    [`https://[${PUBLIC_V6}]:8443/hooks/balance`, `[${PUBLIC_V6}]:8443`],
    ['https://hooks.example.com/hooks/balance', '8.8.8.8:443'],
    ['https://v6.example.com/hooks/balance', `[${PUBLIC_V6}]:443`],
    ['https://mixed.example.com/hooks/balance', `${PUBLIC_V4}:443`],
  ])('a receiver at a public address gets the post: %s', async (url, connectedTo) => {
    const net = network();
    const before = receiver.received.length;
    const answer = await postWebhook(
      url,
      '{"type":"balance.low"}',
      { 'Alk-Signature': 't=1,v1=00' },
      {
        ca: receiver.ca,
        resolve: net.resolve,
        connect: net.connect,
      },
    );
    expect(answer).toEqual({ status: 200, error: null });
    expect(net.connectedTo).toEqual([connectedTo]);
    expect(receiver.received.slice(before)).toHaveLength(1);
    expect(receiver.received[before].body).toBe('{"type":"balance.low"}');
    expect(receiver.received[before].headers['alk-signature']).toBe('t=1,v1=00');
  });

  it.each([
    ['https://127.0.0.1/hooks', '127.0.0.1 is a loopback address'],
    ['https://[::ffff:127.0.0.1]/hooks', '::ffff:7f00:1 leads to 127.0.0.1 (IPv4-mapped), a loopback address'],
    ['https://[::7f00:1]/hooks', '::7f00:1 leads to 127.0.0.1 (IPv4-compatible), a loopback address'],
    ['https://[64:ff9b::a00:1]/hooks', '64:ff9b::a00:1 leads to 10.0.0.1 (NAT64), a private address'],
    ['https://[2002:a00:1::1]/hooks', '2002:a00:1::1 leads to 10.0.0.1 (6to4), a private address'],
    ['https://[fec0::1]/hooks', 'fec0::1 is a site-local address'],
    ['https://[100::1]/hooks', '100::1 is a reserved (discard-only) address'],
    ['https://0x7f.1/hooks', '127.0.0.1 is a loopback address'],
    ['https://inside.example.com/hooks', '10.0.0.1 is a private address'],
    ['https://rebound.example.com/hooks', '127.0.0.1 is a loopback address'],
    ['https://nowhere.example.com/hooks', 'nowhere.example.com does not resolve: ENOTFOUND'],
    ['https://empty.example.com/hooks', 'empty.example.com has no address'],
  ])('a post to a private or special address connects nowhere: %s', async (url, error) => {
    const net = network();
    const before = receiver.received.length;
    const answer = await postWebhook(url, '{}', {}, { ca: receiver.ca, resolve: net.resolve, connect: net.connect });
    expect(answer).toEqual({ status: null, error });
    expect(net.connectedTo).toEqual([]);
    expect(receiver.received.length).toBe(before);
  });

  it('a post that gets no answer fails at its deadline: no resolution, no TLS, no HTTP answer', async () => {
    const deadline = { ca: receiver.ca, timeoutMs: 300 };
    const never = () => new Promise<never>(() => {});
    expect(await postWebhook('https://slow.example.com/hooks', '{}', {}, { ...deadline, resolve: never })).toEqual({
      status: null,
      error: 'slow.example.com does not resolve: no answer within 300 ms',
    });
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as net.AddressInfo).port;
    const connect = (options: tls.ConnectionOptions) =>
      tls.connect({ ...options, socket: net.connect(silentPort, '127.0.0.1') });
    const started = Date.now();
    expect(await postWebhook(`https://${PUBLIC_V4}/hooks`, '{}', {}, { ...deadline, connect })).toEqual({
      status: null,
      error: 'no answer within 300 ms',
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    silent.close();
    const net2 = network();
    receiver.answers.push(0);
    expect(
      await postWebhook(
        `https://${PUBLIC_V4}/hooks`,
        '{}',
        {},
        { ...deadline, resolve: net2.resolve, connect: net2.connect },
      ),
    ).toEqual({ status: null, error: 'no answer within 300 ms' });
  });

  it('the certificate is checked against the URL host, not the address connected to', async () => {
    const net = fakeNetwork({ 'other.example.com': ['8.8.8.8'] }, receiver.port);
    const answer = await postWebhook(
      'https://other.example.com/hooks',
      '{}',
      {},
      {
        ca: receiver.ca,
        resolve: net.resolve,
        connect: net.connect,
      },
    );
    expect(answer.status).toBeNull();
    expect(answer.error).toMatch(/other\.example\.com/);
    expect(net.connectedTo).toEqual(['8.8.8.8:443']);
  });
});

describe('the check of a webhook URL on save', () => {
  const resolve = async (hostname: string) => {
    if (hostname === 'inside.example.com') return [{ address: '10.0.0.7', family: 4 as const }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  };
  it(
    'refuses a private address, lets a name that does not resolve through, ' +
      'and is off when the operator allows private addresses',
    async () => {
      expect(await checkReceiver(new URL('https://inside.example.com/hook'), { resolve })).toEqual({
        refused: '10.0.0.7 is a private address',
        byName: true,
      });
      expect(await checkReceiver(new URL('https://[fec0::1]/hook'), { resolve })).toEqual({
        refused: 'fec0::1 is a site-local address',
        byName: false,
      });
      expect(await checkReceiver(new URL('https://soon.example.com/hook'), { resolve })).toEqual({
        unresolved: 'ENOTFOUND',
      });
      expect(await checkReceiver(new URL(`https://${PUBLIC_V4}/hook`), { resolve })).toEqual({ ok: true });
      expect(
        await checkReceiver(new URL('https://inside.example.com/hook'), { resolve, allowPrivateAddresses: true }),
      ).toEqual({ ok: true });
    },
  );
});
