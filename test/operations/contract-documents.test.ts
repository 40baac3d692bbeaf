// @module-tag runtime
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type ServerType, serve } from '@hono/node-server';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { projectRoot } from '../../src/config.ts';
import { logMailer } from '../../src/mail/mailer.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { spec } from '../support/contract.ts';
import { rawRequest, startHttpServer, type TestHttpServer } from '../support/http.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** How Chromium reports the capability probe `try { new Function("") } catch {}` of zod's validators. */
const ZOD_EVAL_PROBE = 'script-src blocked eval ()';

describe('/docs: Scalar reference served entirely by the service (docs/product-rules.md R2.7.1)', () => {
  let api: TestApi;
  let server: ServerType;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    api = await createTestApi();
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve(info.port),
      );
    });
    origin = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server.close(resolve));
    await api.close();
  });

  it('renders every operation under its Content-Security-Policy, ' +
    'with no violation, and requests nothing outside the service', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    // Every violation of the page's policy, as the browser reports it (the event and the console).
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (violation: string) => violations.push(violation));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) =>
        (window as any).reportViolation(
          `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sample})`,
        ),
      );
    });
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
    });
    const response = await page.goto(`${origin}/docs`);
    expect(response?.status()).toBe(200);
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}'/);
    expect(policy).toContain("default-src 'self'");
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    for (const summary of [
      'Advertiser summary',
      'Domain summary',
      'Advertiser history, month by month',
      'Landing domains of an advertiser',
      'Brand-bid report',
      'Your balance',
      'Liveness',
      'Readiness',
      'Metrics',
    ]) {
      await page.getByText(summary, { exact: true }).first().waitFor({ state: 'attached', timeout: 20_000 });
    }
    // The one report allowed: zod (inside Scalar's bundle) probes once whether it may compile
    // validators with `new Function("")`; the policy says no, zod catches that and validates
    // without compiling. Any other blocked script, style, font, image or request fails the test.
    const others = violations.filter((violation) => violation !== ZOD_EVAL_PROBE);
    expect(others).toEqual([]);
    expect(violations.length - others.length).toBeLessThanOrEqual(1);
    fs.mkdirSync(path.join(projectRoot, 'test-results'), { recursive: true });
    await page.screenshot({ path: path.join(projectRoot, 'test-results', 'docs.png'), fullPage: false });
    const outside = requested.filter(
      (url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:'),
    );
    expect(outside).toEqual([]);
    expect(requested).toContain(`${origin}/openapi.json`);
    expect(requested).toContain(`${origin}/docs/favicon.svg`);
    // No button or link shown leads off the machine (Scalar's client, its site); the account page is linked.
    expect(await page.locator('a[href*="scalar.com"]:visible, [href*="client.scalar"]:visible').count()).toBe(0);
    expect(await page.getByText('Open in API Client').count()).toBe(0);
    expect(await page.locator('a[href="/account"]').count()).toBeGreaterThan(0);
    await page.close();
  }, 90_000);

  it('the page loads its script from the service, not a CDN', async () => {
    const html = await (await api.app.request('/docs')).text();
    expect(html).toMatch(/<script nonce="[^"]+" src="\/docs\/scalar-api-reference.js">/);
    expect(html).not.toMatch(/cdn\.jsdelivr|unpkg\.com|fonts\.googleapis|fonts\.scalar|cdn\.scalar/);
    const script = await api.app.request('/docs/scalar-api-reference.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
  });

  it('the page turns off what leaves the machine, serves its own icon, and suggests a free test key', async () => {
    const html = await (await api.app.request('/docs')).text();
    const config = JSON.parse(/createApiReference\('#app', (\{[\s\S]*\})\)/.exec(html)![1]);
    expect(config).toMatchObject({
      hideClientButton: true,
      telemetry: false,
      persistAuth: false,
      favicon: '/docs/favicon.svg',
    });
    expect(config).not.toHaveProperty('authentication');
    expect(config.customCss).toContain('a[href^="https://www.scalar.com"]');
    expect(html).toContain('<link rel="icon" type="image/svg+xml" href="/docs/favicon.svg" />');
    const icon = await api.app.request('/docs/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg /);
    const contract = await (await api.app.request('/openapi.json')).json();
    expect(contract.info.description).toContain('[account page](/account)');
    expect(contract.info.description).toMatch(/paste a \*\*test key\*\* \(`alk_test_…`\)/);
    for (const scheme of Object.values(contract.components.securitySchemes) as { description: string }[])
      expect(scheme.description).toContain('use a test key (`alk_test_…`, free); a live key spends credits');
  });

  it(
    'each page gets a fresh script nonce, on every script ' + 'tag and in its policy; the page is never cached',
    async () => {
      const nonces = [];
      for (let i = 0; i < 2; i++) {
        const page = await api.app.request('/docs');
        const nonce = /'nonce-([^']+)'/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
        expect(nonce).toBeDefined();
        const html = await page.text();
        expect(html.match(/<script\b/g)?.length).toBe(2);
        expect(html.match(new RegExp(`<script nonce="${nonce!.replace(/[+/=]/g, '\\$&')}"`, 'g'))?.length).toBe(2);
        expect(page.headers.get('cache-control')).toBe('no-store');
        expect(page.headers.get('x-content-type-options')).toBe('nosniff');
        nonces.push(nonce);
      }
      expect(nonces[0]).not.toBe(nonces[1]);
    },
  );
});

describe('/docs never takes an address from the request', () => {
  let api: TestApi;
  let http: TestHttpServer;
  beforeAll(async () => {
    api = await createTestApi();
    http = await startHttpServer(api.app);
  });
  afterAll(async () => {
    await http.close();
    await api.close();
  });

  it('a hostile Host header is not reflected into the page: "Try it" uses the relative server "/"', async () => {
    for (const host of ['attacker.example', 'attacker.example:8443', 'evil.example"><script>alert(1)</script>']) {
      const answer = await rawRequest(http.port, `GET /docs HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      if (answer.status === 400) continue; // a Host the URL parser refuses never reaches the page
      expect(answer.status, host).toBe(200);
      expect(answer.body, host).toContain('<script');
      expect(answer.body, host).not.toContain('attacker.example');
      expect(answer.body, host).not.toContain('evil.example');
      expect(answer.body, host).toMatch(/"servers": \[\s*\{\s*"url": "\/",/);
    }
  });
});

describe("the served contract's info names the operator (docs/product-rules.md R13.5)", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({
      operator: {
        companyName: 'Lookup Ltd',
        supportEmail: 'help@lookup.example',
        termsUrl: 'https://lookup.example/terms',
      },
      web: {
        publicUrl: () => new URL('https://api.lookup.example'),
        secureCookies: true,
        log: () => {},
        mailer: logMailer(() => {}),
      },
    });
  });
  afterAll(() => api?.close());

  it(
    '/openapi.json, /openapi.yaml and /docs give its support address, ' +
      'account page and terms; nothing else changes',
    async () => {
      const expected = {
        contact: {
          name: 'Lookup Ltd support',
          email: 'help@lookup.example',
          url: 'https://api.lookup.example/account',
        },
        termsOfService: 'https://lookup.example/terms',
      };
      const json = await (await api.app.request('/openapi.json')).json();
      expect(json.info).toMatchObject(expected);
      const yamlText = await (await api.app.request('/openapi.yaml')).text();
      const yaml = parse(yamlText);
      expect(yaml.info).toMatchObject(expected);
      expect(yaml).toEqual(json);
      expect({ ...json, info: { ...spec.info } }).toEqual(spec);
      // The file's comments stay; nothing served names a placeholder company.
      expect(yamlText).toContain('# Query parameters that carry credentials by common convention');
      for (const text of [JSON.stringify(json), yamlText])
        expect(text).not.toMatch(/example\.com\/(terms|support)|support@example\.com/);
    },
  );
});
