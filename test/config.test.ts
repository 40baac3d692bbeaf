// @module-tag database-free
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { README, readmeConfigTable } from '../scripts/config-table.ts';
import {
  ConfigError,
  DEFAULT_CREDIT_PACKS,
  DEFAULT_HTTP_LIMITS,
  envSchema,
  loadConfig,
  projectRoot,
  renderConfigTable,
} from '../src/config.ts';

const HTTP_VARIABLES = [
  'HTTP_MAX_HEADER_BYTES',
  'HTTP_MAX_URL_BYTES',
  'HTTP_HEADERS_TIMEOUT_MS',
  'HTTP_REQUEST_TIMEOUT_MS',
  'HTTP_KEEP_ALIVE_TIMEOUT_MS',
];

describe('HTTP limits from the environment (config)', () => {
  const saved = Object.fromEntries(HTTP_VARIABLES.map((name) => [name, process.env[name]]));
  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it(
    'defaults: 64 KiB of request line and headers, 32 KiB of ' +
      'URL, 10 s for headers, 30 s per request, 5 s keep-alive',
    () => {
      for (const name of HTTP_VARIABLES) delete process.env[name];
      expect(loadConfig().http).toEqual({
        maxHeaderBytes: 65_536,
        maxUrlBytes: 32_768,
        headersTimeoutMs: 10_000,
        requestTimeoutMs: 30_000,
        keepAliveTimeoutMs: 5_000,
      });
      expect(loadConfig().http).toEqual(DEFAULT_HTTP_LIMITS);
    },
  );

  it('each limit is configurable', () => {
    Object.assign(process.env, {
      HTTP_MAX_HEADER_BYTES: '16384',
      HTTP_MAX_URL_BYTES: '8192',
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '4000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
    });
    expect(loadConfig().http).toEqual({
      maxHeaderBytes: 16_384,
      maxUrlBytes: 8_192,
      headersTimeoutMs: 2_000,
      requestTimeoutMs: 4_000,
      keepAliveTimeoutMs: 1_000,
    });
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

describe('the configuration schema (config)', () => {
  it('parses the environment it is given into the Config the service uses, every default filled in', () => {
    expect(loadConfig({})).toEqual({
      databaseUrl: undefined,
      readUrls: [],
      readMaxLagMs: 1_000,
      embeddedDataDir: path.join(projectRoot, '.data', 'postgres'),
      embeddedPort: 54329,
      port: 3000,
      host: '127.0.0.1',
      poolSize: 10,
      loadDemoData: true,
      rateLimitPerMinute: 600,
      watchLimit: 1_000,
      watchPostsPerSecond: 1_000,
      logLevel: 'info',
      readinessTimeoutMs: 2_000,
      http: DEFAULT_HTTP_LIMITS,
      unauthorizedFloorMs: 10,
      connectTimeoutMs: 2_000,
      statementTimeoutMs: 5_000,
      shutdownTimeoutMs: 10_000,
      pendingRefundsDir: path.join(projectRoot, '.data', 'pending-refunds'),
      publicUrl: undefined,
      smtpUrl: undefined,
      mailFrom: 'Advertiser Lookup API <no-reply@localhost>',
      alertWebhookPrivateAddresses: false,
      stripe: null,
      creditPacks: DEFAULT_CREDIT_PACKS,
      operator: {
        companyName: 'Advertiser Lookup API',
        supportEmail: 'support@localhost.localdomain',
        termsUrl: undefined,
      },
    });
    const config = loadConfig({
      DATABASE_URL: 'postgres://db.example:5432/alk',
      DATABASE_READ_URL: 'postgres://reader:pw@replica-1.example:5432/alk, postgresql://replica-2.example/alk',
      READ_MAX_LAG_MS: '250',
      EMBEDDED_PG_DIR: '/srv/pg',
      PORT: '0',
      HOST: '0.0.0.0',
      DEMO_DATA: 'off',
      RATE_LIMIT_PER_MINUTE: 'off',
      STATEMENT_TIMEOUT_MS: '0',
      PENDING_REFUNDS_DIR: '/srv/refunds',
      PUBLIC_URL: 'https://api.example.com',
      SMTP_URL: 'smtp://mailer:secret@smtp.example.com:587',
      MAIL_FROM: 'Lookup <no-reply@example.com>',
      ALERT_WEBHOOK_PRIVATE_ADDRESSES: 'on',
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_WEBHOOK_SECRET: 'whsec_456',
      CREDIT_PACKS: '[{"id":"one","name":"One","credits":10,"price":100,"currency":"eur"}]',
    });
    expect(config).toMatchObject({
      stripe: { secretKey: 'sk_test_123', webhookSecret: 'whsec_456', apiUrl: undefined },
      creditPacks: [{ id: 'one', name: 'One', credits: 10, price: 100, currency: 'eur' }],
      alertWebhookPrivateAddresses: true,
      publicUrl: 'https://api.example.com',
      smtpUrl: 'smtp://mailer:secret@smtp.example.com:587',
      mailFrom: 'Lookup <no-reply@example.com>',
      databaseUrl: 'postgres://db.example:5432/alk',
      readUrls: ['postgres://reader:pw@replica-1.example:5432/alk', 'postgresql://replica-2.example/alk'],
      readMaxLagMs: 250,
      embeddedDataDir: '/srv/pg',
      port: 0,
      host: '0.0.0.0',
      loadDemoData: false,
      rateLimitPerMinute: 0,
      statementTimeoutMs: 0,
      pendingRefundsDir: '/srv/refunds',
    });
  });

  it(
    'Stripe needs both its secret key and its webhook secret; ' + 'credit packs must be a JSON array of valid packs',
    () => {
      expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_test_1' })).toThrow(
        /STRIPE_WEBHOOK_SECRET must be set together with the other/,
      );
      expect(() => loadConfig({ CREDIT_PACKS: 'lots' })).toThrow(/CREDIT_PACKS must be a JSON array of packs/);
      expect(() =>
        loadConfig({ CREDIT_PACKS: '[{"id":"x","name":"X","credits":10,"price":100,"currency":"USD"}]' }),
      ).toThrow(/CREDIT_PACKS/);
    },
  );

  it('the operator: company name, support address and terms URL, with defaults for a local start', () => {
    expect(
      loadConfig({
        COMPANY_NAME: 'Lookup Ltd',
        SUPPORT_EMAIL: 'help@lookup.example',
        TERMS_URL: 'https://lookup.example/terms',
      }).operator,
    ).toEqual({
      companyName: 'Lookup Ltd',
      supportEmail: 'help@lookup.example',
      termsUrl: 'https://lookup.example/terms',
    });
    expect(() => loadConfig({ SUPPORT_EMAIL: 'nobody' })).toThrow(
      'SUPPORT_EMAIL must be an email address, such as support@yourcompany.com, got "nobody"',
    );
    expect(() => loadConfig({ TERMS_URL: 'terms.html' })).toThrow(/^TERMS_URL must be an http:\/\/ or https:\/\/ URL/);
  });

  it('an empty variable counts as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '', DEMO_DATA: '', EMBEDDED_PG_DIR: '' })).toEqual(loadConfig({}));
  });

  it('a bad value stops the start with a ConfigError naming each variable, what it must be and what it got', () => {
    expect(() => loadConfig({ PORT: 'x' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'x' })).toThrow('PORT must be an integer of at least 0, got "x"');
    expect(() => loadConfig({ DB_POOL_SIZE: '0' })).toThrow('DB_POOL_SIZE must be an integer of at least 1, got "0"');
    expect(() => loadConfig({ READYZ_TIMEOUT_MS: '1.5' })).toThrow(
      'READYZ_TIMEOUT_MS must be an integer of at least 1, got "1.5"',
    );
    expect(() => loadConfig({ RATE_LIMIT_PER_MINUTE: '-5' })).toThrow(
      'RATE_LIMIT_PER_MINUTE must be an integer of at least 0 or off, got "-5"',
    );
    expect(() => loadConfig({ DEMO_DATA: 'maybe' })).toThrow('DEMO_DATA must be on or off, got "maybe"');
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(
      /^LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "verbose"$/,
    );
    // Against a default, the message says so.
    expect(() => loadConfig({ HTTP_MAX_HEADER_BYTES: '16384' })).toThrow(
      'HTTP_MAX_URL_BYTES must be smaller than HTTP_MAX_HEADER_BYTES (16384), its default is 32768',
    );
    // Every problem at once, so one restart is enough to fix them.
    expect(() => loadConfig({ PORT: 'x', DEMO_DATA: 'maybe' })).toThrow(
      'PORT must be an integer of at least 0, got "x"; DEMO_DATA must be on or off, got "maybe"',
    );
    // A URL's password is never repeated in the message.
    expect(() => loadConfig({ SMTP_URL: 'http://mailer:hunter22@smtp.example.com' })).toThrow(
      'SMTP_URL must be an smtp:// or smtps:// URL, such as smtp://user:password@host:587, ' +
        'got "http://mailer:***@smtp.example.com/"',
    );
    // Nor any of a list's, and two bad entries are told once.
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://r:hunter22@replica/alk,mysql://r:pw@x/y,x' })).toThrow(
      new ConfigError(
        'DATABASE_READ_URL must be postgres:// URLs separated by commas, ' +
          'got "postgres://r:***@replica/alk,mysql://r:***@x/y,x"',
      ),
    );
  });

  it("README.md's Configuration table is the one rendered from the schema", () => {
    const { table } = readmeConfigTable(fs.readFileSync(README, 'utf8'));
    expect(
      table,
      "README.md's Configuration table differs from envSchema in " +
        'src/config.ts: run `npx tsx scripts/config-table.ts --write`',
    ).toBe(renderConfigTable());
  });

  it('every variable has a meaning, and src/ reads no variable from the environment but through the schema', () => {
    for (const [name, schema] of Object.entries(envSchema.shape)) expect(schema.description, name).toMatch(/\S/);
    const read = new Set<string>();
    for (const file of fs.readdirSync(path.join(projectRoot, 'src'), { recursive: true, encoding: 'utf8' })) {
      if (!/\.tsx?$/.test(file)) continue;
      const source = fs.readFileSync(path.join(projectRoot, 'src', file), 'utf8');
      for (const [, name] of source.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)/g)) read.add(name);
    }
    // LOG_LEVEL included: a variable read by name would escape the schema's checks and the README's table.
    expect([...read]).toEqual([]);
  });
});
