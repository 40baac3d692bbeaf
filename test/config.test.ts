import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_LIMITS, loadConfig } from '../src/config.ts';

const HTTP_VARIABLES = ['HTTP_MAX_HEADER_BYTES', 'HTTP_MAX_URL_BYTES', 'HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS', 'HTTP_KEEP_ALIVE_TIMEOUT_MS'];

describe('HTTP limits from the environment (config)', () => {
  const saved = Object.fromEntries(HTTP_VARIABLES.map((name) => [name, process.env[name]]));
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it('defaults: 64 KiB of request line and headers, 32 KiB of URL, 10 s for headers, 30 s per request, 5 s keep-alive', () => {
    for (const name of HTTP_VARIABLES) delete process.env[name];
    expect(loadConfig().http).toEqual({
      maxHeaderBytes: 65_536,
      maxUrlBytes: 32_768,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
    });
    expect(loadConfig().http).toEqual(DEFAULT_HTTP_LIMITS);
  });

  it('each limit is configurable', () => {
    Object.assign(process.env, {
      HTTP_MAX_HEADER_BYTES: '16384',
      HTTP_MAX_URL_BYTES: '8192',
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '4000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
    });
    expect(loadConfig().http).toEqual({ maxHeaderBytes: 16_384, maxUrlBytes: 8_192, headersTimeoutMs: 2_000, requestTimeoutMs: 4_000, keepAliveTimeoutMs: 1_000 });
  });

  it('inconsistent or nonsensical limits stop the start with a message that names the variable', () => {
    process.env.HTTP_HEADERS_TIMEOUT_MS = '5000';
    process.env.HTTP_REQUEST_TIMEOUT_MS = '1000';
    expect(() => loadConfig()).toThrow(/HTTP_HEADERS_TIMEOUT_MS must not be larger than HTTP_REQUEST_TIMEOUT_MS/);
    delete process.env.HTTP_HEADERS_TIMEOUT_MS;
    delete process.env.HTTP_REQUEST_TIMEOUT_MS;
    process.env.HTTP_MAX_URL_BYTES = '65536';
    expect(() => loadConfig()).toThrow(/HTTP_MAX_URL_BYTES must be smaller than HTTP_MAX_HEADER_BYTES/);
    process.env.HTTP_MAX_URL_BYTES = 'lots';
    expect(() => loadConfig()).toThrow(/HTTP_MAX_URL_BYTES must be an integer/);
    process.env.HTTP_MAX_URL_BYTES = '10';
    expect(() => loadConfig()).toThrow(/HTTP_MAX_URL_BYTES must be an integer of at least 256/);
  });
});
