import type { App } from '../../src/app.ts';

export interface Page {
  status: number;
  headers: Headers;
  text: string;
  /** Where a redirect points. */
  location: string | null;
  /** The form token of the page's forms, if it has one. */
  csrfToken: string | null;
}

/**
 * A browser without a browser: calls the app in-process, keeps its cookies, sends forms as a
 * browser does (url-encoded, with the page's Origin).
 */
let nextAddress = 1;

export class WebClient {
  readonly cookies = new Map<string, string>();
  /** The form token of the last page seen, sent with the next form unless the test says otherwise. */
  csrfToken: string | null = null;

  /**
   * The address the app sees the browser's requests come from (the socket's peer, which the
   * account page's attempt limits count per client): each browser its own unless told.
   */
  readonly address: string;

  constructor(
    private readonly app: App,
    readonly origin = 'http://localhost',
    address?: string,
  ) {
    this.address = address ?? `10.${nextAddress >> 16}.${(nextAddress >> 8) & 255}.${nextAddress & 255}`;
    nextAddress++;
  }

  async get(path: string): Promise<Page> {
    return this.#send(path, { method: 'GET' });
  }

  /** Posts `fields` with the last page's form token (unless `fields` has its own `csrf_token`). */
  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Page> {
    const form = new URLSearchParams({ ...(this.csrfToken ? { csrf_token: this.csrfToken } : {}), ...fields });
    return this.#send(path, {
      method: 'POST',
      body: form.toString(),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: this.origin, ...headers },
    });
  }

  async #send(path: string, init: { method: string; body?: string; headers?: Record<string, string> }): Promise<Page> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await this.app.request(
      `${this.origin}${path}`,
      { ...init, headers: { ...(init.headers ?? {}), ...(cookie ? { Cookie: cookie } : {}) } },
      // What @hono/node-server hands the app: the request's socket, read for the peer's address.
      { incoming: { socket: { remoteAddress: this.address } } },
    );
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...rest] = pair.split('=');
      const value = rest.join('=');
      const expired = attributes.some((a) => /max-age=0/i.test(a.trim())) || value === '';
      if (expired) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const text = await response.text();
    const csrfToken = /name="csrf_token" value="([^"]+)"/.exec(text)?.[1] ?? null;
    if (csrfToken) this.csrfToken = csrfToken;
    return {
      status: response.status,
      headers: response.headers,
      text,
      location: response.headers.get('location'),
      csrfToken,
    };
  }
}
