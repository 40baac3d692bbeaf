import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/config.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('/docs: Scalar reference served entirely by the service (product-decisions §7)', () => {
  let api: TestApi;
  let server: ServerType;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    api = await createTestApi();
    const port = await new Promise<number>((resolve) => {
      server = serve({ fetch: api.app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) => resolve(info.port));
    });
    origin = `http://127.0.0.1:${port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server.close(resolve));
    await api.close();
  });

  it('renders every operation and requests nothing outside the service', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const response = await page.goto(`${origin}/docs`);
    expect(response?.status()).toBe(200);
    for (const summary of ['Advertiser summary', 'Domain summary', 'Advertiser history, month by month', 'Landing domains of an advertiser', 'Brand-bid report', 'Your balance']) {
      await page.getByText(summary, { exact: true }).first().waitFor({ state: 'attached', timeout: 20_000 });
    }
    fs.mkdirSync(path.join(projectRoot, 'test-results'), { recursive: true });
    await page.screenshot({ path: path.join(projectRoot, 'test-results', 'docs.png'), fullPage: false });
    const outside = requested.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:') && !url.startsWith('blob:'));
    expect(outside).toEqual([]);
    expect(requested).toContain(`${origin}/openapi.json`);
    await page.close();
  }, 90_000);

  it('the page loads its script from the service, not a CDN', async () => {
    const html = await (await api.app.request('/docs')).text();
    expect(html).toContain('src="/docs/scalar-api-reference.js"');
    expect(html).not.toMatch(/cdn\.jsdelivr|unpkg\.com|fonts\.googleapis|fonts\.scalar|cdn\.scalar/);
    const script = await api.app.request('/docs/scalar-api-reference.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
  });
});
