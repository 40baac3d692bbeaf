import net from 'node:net';
import tls from 'node:tls';
import type { Resolve } from '../../src/alerts/receiver-addresses.ts';
import type { Connect } from '../../src/alerts/webhook-post.ts';

/** A resolver and a connect function for webhook posts in which no packet leaves the machine. */
export interface FakeNetwork {
  resolve: Resolve;
  connect: Connect;
  /** The addresses and ports posts connected to, in order. */
  connectedTo: string[];
}

/**
 * `names`: what each host name resolves to (any other name does not resolve). Every connection,
 * whatever address it is for, reaches the local receiver on `port`; TLS still checks the
 * receiver's certificate against the URL's host, as it would at that address.
 */
export function fakeNetwork(names: Record<string, string[]>, port: number): FakeNetwork {
  const connectedTo: string[] = [];
  return {
    connectedTo,
    resolve: async (hostname) => {
      const addresses = names[hostname.toLowerCase()];
      if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return addresses.map((address) => ({ address, family: net.isIP(address) === 6 ? 6 : 4 }));
    },
    connect: (options) => {
      connectedTo.push(
        net.isIP(options.host) === 6 ? `[${options.host}]:${options.port}` : `${options.host}:${options.port}`,
      );
      return tls.connect({ ...options, socket: net.connect(port, '127.0.0.1') });
    },
  };
}
