// @module-tag runtime
import fs from 'node:fs';
import type http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HTTP_LIMITS, projectRoot } from '../../src/config.ts';
import { setAlertWebhook } from '../../src/data/alerts.ts';
import { createHttpServer } from '../../src/http/server.ts';
import { type AccountPageHarness, startAccountPage } from '../support/account-page.ts';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = path.join(projectRoot, 'test-results', 'account-page');
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The Watches page in Chromium, served by the app over HTTP, at a desktop's and a phone's width. */
describe('the Watches page in a browser', () => {
  let harness: AccountPageHarness;
  let server: http.Server;
  let url: string;
  let browser: Browser;
  let receiver: HttpsReceiver;

  beforeAll(async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    receiver = await startHttpsReceiver();
    // The receiver listens on 127.0.0.1: this page may post there (the default refuses private addresses).
    harness = await startAccountPage({ webhooks: { ca: receiver.ca, allowPrivateAddresses: true } });
    server = createHttpServer(harness.app.fetch, DEFAULT_HTTP_LIMITS, '127.0.0.1');
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    await harness?.close();
    await receiver?.close();
  });

  async function axeViolations(page: Page): Promise<string[]> {
    await page.evaluate(AXE_SOURCE);
    const { passes, violations } = await page.evaluate(async () => {
      const run = await (window as unknown as { axe: { run(): Promise<any> } }).axe.run();
      return {
        passes: run.passes.length as number,
        violations: run.violations.map(
          (v: { id: string; nodes: { target: string[] }[] }) =>
            `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
        ) as string[],
      };
    });
    expect(passes).toBeGreaterThan(10);
    return violations;
  }

  const LISTS =
    'lists live and sandbox watches with their news, and a test event’s result: ' +
    'no axe violation, nothing wider than the screen';
  it(LISTS, async () => {
    const client = await harness.signedIn('browser-watcher@example.com');
    await client.get('/account/watches');
    for (const [kind, target, sandbox] of [
      ['domain', 'acme-outdoor.com', ''],
      ['advertiser', 'Northwind Media Group', ''],
      ['domain', 'globex-retail.com', '1'],
    ])
      expect((await client.post('/account/watches', { kind, target, ...(sandbox && { sandbox }) })).status).toBe(303);
    const [watch] = await harness.db.sql<{ id: string }[]>`
      SELECT id FROM watches WHERE target = 'acme-outdoor.com' AND deleted_at IS NULL`;
    for (const [id, name, count] of [
      ['AR1042', 'Acme Outdoor Deals Worldwide Limited', 7],
      ['AR2077', 'Trail Gear Outlet', 1],
    ] as const)
      await harness.db.sql`
        INSERT INTO watch_events (watch_id, advertiser_id, advertiser, landing_domain, first_seen, landing_domain_count)
        VALUES (${watch.id}, ${id}, ${name}, 'acme-outdoor.com', '2026-11-20', ${count})`;
    const [{ account_id: accountId }] = await harness.db.sql<{ account_id: number }[]>`
      SELECT account_id FROM watches WHERE id = ${watch.id}`;
    await setAlertWebhook(harness.db.sql, accountId, receiver.url, 'whsec_browser_watch');
    const found: string[] = [];
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      const context = await browser.newContext({ viewport });
      await context.addCookies([...client.cookies].map(([name, value]) => ({ name, value, url })));
      const page = await context.newPage();
      const response = await page.goto(`${url}/account/watches`);
      expect(response?.status()).toBe(200);
      await expect.poll(() => page.getByTestId('watch').count()).toBe(3);
      // The button of the first watch, clicked: the page comes back with how the receiver answered.
      await page
        .getByRole('button', { name: 'Send a test event of the watch of acme-outdoor.com to your webhook' })
        .click();
      await expect.poll(() => page.getByText('your endpoint answered HTTP 200').count()).toBe(1);
      for (const violation of await axeViolations(page)) found.push(`${viewport.width}: ${violation}`);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > viewport.width) found.push(`${viewport.width}: the page is ${width} px wide`);
      await page.screenshot({ path: path.join(SCREENSHOTS, `watches-${viewport.width}.png`), fullPage: true });
      await context.close();
    }
    expect(found).toEqual([]);
  }, 120_000);
});
