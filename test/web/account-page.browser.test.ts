// @module-tag runtime
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/config.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { loadFixture } from '../support/fixture.ts';
import { startTestSmtp, type TestSmtp } from '../support/mail.ts';
import { type Started, startService } from '../support/service.ts';
import { SECRET_KEY, type StripeStandIn, startStripeStandIn, WEBHOOK_SECRET } from '../support/stripe.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOTS = path.join(projectRoot, 'test-results', 'account-page');
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const EMAIL = 'grace@example.com';
/**
 * axe-core, injected into each page from node_modules by the DevTools protocol (the page's CSP
 * allows no inline script); nothing is fetched.
 */
const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const PASSWORD = 'a long passphrase of mine';

/**
 * The account page end to end, as a newcomer uses it: the real service (its own process) on a
 * real database, its emails on a real SMTP server in this process, the pages in Chromium.
 * Slow for a reason (30-60 s): every page state at two widths, each audited by axe-core.
 */
describe('the account page in a browser, from sign-up to a revoked key', () => {
  let db: TestDatabase;
  let smtp: TestSmtp;
  let service: Started;
  let stripe: StripeStandIn;
  let browser: Browser;
  const violations: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    db = await createTestDatabase();
    await loadFixture(db.sql);
    smtp = await startTestSmtp();
    stripe = await startStripeStandIn();
    service = await startService({
      DATABASE_URL: db.url,
      DEMO_DATA: 'off',
      SMTP_URL: smtp.url,
      STRIPE_SECRET_KEY: SECRET_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
    });
    stripe.webhookUrl = `${service.url}/webhooks/stripe`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (service) expect(await service.stop()).toBe(0);
    await smtp?.close();
    await stripe?.close();
    await db?.drop();
  });

  /** A browser context that reports every Content-Security-Policy violation and refuses requests elsewhere. */
  async function context(
    viewport: { width: number; height: number },
    storageState?: Awaited<ReturnType<BrowserContext['storageState']>>,
  ): Promise<BrowserContext> {
    const created = await browser.newContext({ viewport, acceptDownloads: true, storageState });
    await created.exposeFunction('reportViolation', (violation: string) => violations.push(violation));
    await created.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) =>
        (window as unknown as { reportViolation(v: string): void }).reportViolation(
          `${location.pathname}: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}`,
        ),
      );
    });
    // The service, and the stand-in for Stripe's Checkout page that the buy form leads to.
    await created.route(
      (url) => !url.href.startsWith(service.url) && !url.href.startsWith(stripe.url),
      (route) => {
        violations.push(`request outside the service: ${route.request().url()}`);
        return route.abort();
      },
    );
    return created;
  }

  async function shot(page: Page, name: string) {
    // Standards mode: the page declares its doctype.
    expect(await page.evaluate(() => document.compatMode), name).toBe('CSS1Compat');
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  async function api(pathAndQuery: string, key: string) {
    const response = await fetch(`${service.url}${pathAndQuery}`, { headers: { Authorization: `Bearer ${key}` } });
    return { status: response.status, body: await response.json() };
  }

  it('sign up → confirm by email → sign in → create a key → call the API → ' +
    'balance, chart and ledger CSV agree → revoke → 401', async () => {
    const desktop = await context(DESKTOP);
    const page = await desktop.newPage();

    await page.goto(`${service.url}/account/sign-up`);
    await shot(page, 'desktop-1-sign-up');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Check your email' }).isVisible()).toBe(true);
    await shot(page, 'desktop-2-check-your-email');

    const mail = await smtp.next(EMAIL);
    expect(mail.link).toMatch(new RegExp(`^${service.url}/account/verify\\?token=`));
    await page.goto(mail.link!);
    await shot(page, 'desktop-3-confirm');
    await page.getByRole('button', { name: 'Confirm my address' }).click();
    // Confirming signs in.
    await expect.poll(() => page.getByText('Your email address is confirmed').isVisible()).toBe(true);
    await shot(page, 'desktop-4-confirmed');
    await page.getByRole('link', { name: 'Go to the overview' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Overview' }).isVisible()).toBe(true);
    expect(await page.getByTestId('balance').textContent()).toBe('0');
    await shot(page, 'desktop-5-overview-new-account');

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel(/^Name/).fill('reporting script');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).toMatch(/^alk_[0-9A-Za-z]{38}$/);
    await expect.poll(() => page.getByText('this is the only time it is shown').isVisible()).toBe(true);
    await expect.poll(() => page.getByText('200 free credits').isVisible()).toBe(true);
    const copy = page.locator('button[data-copy="new-key"]');
    expect(await copy.isVisible()).toBe(true);
    expect(await copy.textContent()).toBe('Copy the key');
    await shot(page, 'desktop-6-key-created');
    await copy.click();
    await expect.poll(async () => (await copy.textContent()) !== 'Copy the key').toBe(true);

    for (let i = 0; i < 3; i++) {
      const called = await api(`/api/v1/advertiser?name=${encodeURIComponent('Acme Outdoor GmbH')}`, key);
      expect(called.status).toBe(200);
    }
    const { body: account } = await api('/api/v1/account', key);
    expect(account.balance).toBe(200 - 3 * 3);

    // The key is never shown again; its last use is listed.
    await page.goto(`${service.url}/account/keys`);
    expect(await page.content()).not.toContain(key);
    const listed = await page.getByTestId('keys').textContent();
    expect(listed).toContain('reporting script');
    expect(listed).not.toContain('never');
    // Beside the keys, what to paste into an MCP client: this service's /mcp, a placeholder for the key.
    const mcpConfig = JSON.parse((await page.getByTestId('mcp-config').textContent()) ?? '');
    expect(mcpConfig.mcpServers['advertiser-lookup'].url).toBe(`${service.url}/mcp`);
    await shot(page, 'desktop-7a-keys-with-mcp-config');

    const navigation = await page.goto(`${service.url}/account?days=30`);
    expect(navigation?.status()).toBe(200);
    expect(await page.getByTestId('balance').textContent()).toBe(String(account.balance));
    expect(await page.getByTestId('period-credits').textContent()).toBe('9');
    await expect.poll(() => page.locator('#usage-chart canvas').count()).toBe(1);
    expect(await page.getByTestId('usage-operations').locator('tbody tr').first().textContent()).toBe(
      'Advertiser summary3 credits309',
    );
    await shot(page, 'desktop-7-overview-with-usage');
    // Reported, not asserted: what the overview weighs and how soon its first byte comes.
    const weight = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const bytes = [navigation, ...resources].reduce((sum, entry) => sum + entry.encodedBodySize, 0);
      return { bytes, files: resources.length + 1, ttfb: navigation.responseStart - navigation.requestStart };
    });
    console.log(
      `account overview: ${weight.files} files, ${(weight.bytes / 1024).toFixed(1)} KiB uncompressed; ` +
        `time to first byte ${weight.ttfb.toFixed(1)} ms`,
    );

    await page.getByRole('link', { name: 'Ledger' }).click();
    expect(await page.getByTestId('ledger').locator('tbody tr').count()).toBe(4);
    await shot(page, 'desktop-8-ledger');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    const csv = fs.readFileSync((await download.path())!, 'utf8');
    const records = parse(csv, { columns: true }) as { kind: string; amount: string }[];
    expect(records.map((r) => r.kind)).toEqual(['charge', 'charge', 'charge', 'grant']);
    expect(records.reduce((sum, r) => sum + Number(r.amount), 0)).toBe(account.balance);

    // Spending controls (docs/product-rules.md §14): a daily cap stops the key; an alert by email.
    const advertiser = `/api/v1/advertiser?name=${encodeURIComponent('Acme Outdoor GmbH')}`;
    await page.goto(`${service.url}/account/keys`);
    await page.getByRole('link', { name: 'Daily cap of reporting script' }).click();
    await shot(page, 'desktop-8a-daily-cap');
    await page.getByLabel(/^Credits per day/).fill('12');
    await page.getByRole('button', { name: 'Save the cap' }).click();
    await expect
      .poll(() => page.getByText('may spend up to 12 credits per UTC day; 9 are spent today').isVisible())
      .toBe(true);
    expect((await api(advertiser, key)).status).toBe(200);
    const capped = await api(advertiser, key);
    expect(capped.status).toBe(403);
    expect(capped.body).toMatchObject({ error: 'daily_cap_reached', daily_cap: 12, spent_today: 12 });
    await page.reload();
    expect(await page.getByTestId('keys').textContent()).toContain('12 of 12 today');
    await shot(page, 'desktop-8b-keys-with-cap');
    await page.getByRole('link', { name: 'Daily cap of reporting script' }).click();
    await page.getByLabel(/^Credits per day/).fill('');
    await page.getByRole('button', { name: 'Save the cap' }).click();
    await expect.poll(() => page.getByText('has no daily cap now').isVisible()).toBe(true);

    await page.getByRole('link', { name: 'Alerts' }).click();
    expect(await page.getByLabel(/^Alert below/).inputValue()).toBe('50');
    await page.getByLabel(/^Alert below/).fill('185');
    await page.getByRole('button', { name: 'Save the threshold' }).click();
    await expect.poll(() => page.getByText('The alert threshold is saved.').isVisible()).toBe(true);
    expect((await api(advertiser, key)).status).toBe(200); // 188 → 185: not below
    expect((await api(advertiser, key)).status).toBe(200); // 182: below, one alert
    const alert = await smtp.next(EMAIL);
    expect(alert.subject).toBe('Your balance is below 185 credits');
    expect(alert.raw).toContain('is down to 182 credits');
    await page.getByLabel(/^Endpoint URL/).fill('https://hooks.example.com/balance');
    await page.getByRole('button', { name: 'Save the webhook' }).click();
    await expect.poll(() => page.getByText('The webhook is saved.').isVisible()).toBe(true);
    expect(await page.getByTestId('deliveries').textContent()).toContain('182 (below 185)');
    // Below the threshold: the page says so. A test event's result is shown (here no name resolves).
    expect(await page.getByTestId('low-balance-warning').textContent()).toContain('is below your alert threshold');
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await expect.poll(() => page.getByText(/The test event test_[0-9a-f]+ was/).isVisible()).toBe(true);
    expect(await page.getByTestId('test-events').textContent()).toContain('https://hooks.example.com/balance');
    await shot(page, 'desktop-8c-alerts');

    // Buying credits (docs/product-rules.md §13): Buy → Stripe Checkout (the stand-in) → Pay → back,
    // and the balance goes up once Stripe's signed event reached the webhook.
    await page.getByRole('link', { name: 'Buy credits' }).click();
    expect(await page.getByTestId('balance').textContent()).toBe('182');
    await shot(page, 'desktop-8d-buy-credits');
    await page.getByRole('button', { name: 'Buy Starter: 1,000 credits' }).click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`^${stripe.url}/pay/cs_test_`));
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect
      .poll(() => page.getByText('your payment went through and 1,000 credits were added').isVisible())
      .toBe(true);
    await page.reload();
    expect(await page.getByTestId('balance').textContent()).toBe('1,182');
    await shot(page, 'desktop-8e-credits-bought');
    expect((await api('/api/v1/account', key)).body.balance).toBe(1_182);

    await page.goto(`${service.url}/account/keys`);
    await page.getByRole('link', { name: /^Revoke/ }).click();
    await shot(page, 'desktop-9-revoke-confirmation');
    expect((await api('/api/v1/account', key)).status).toBe(200);
    await page.getByRole('button', { name: 'Revoke the key' }).click();
    await expect.poll(() => page.getByText('is revoked').isVisible()).toBe(true);
    await shot(page, 'desktop-10-key-revoked');
    expect((await api('/api/v1/account', key)).status).toBe(401);

    // The same pages at a phone's width, signed in as above: nothing wider than the screen.
    const phone = await context(PHONE, await desktop.storageState());
    const small = await phone.newPage();
    const phoneShot = async (name: string) => {
      expect(await small.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(PHONE.width);
      await shot(small, `phone-${name}`);
    };
    for (const [name, where] of [
      ['overview', '/account'],
      ['keys', '/account/keys'],
      ['ledger', '/account/ledger'],
      ['alerts', '/account/alerts'],
      ['buy-credits', '/account/credits'],
    ]) {
      await small.goto(`${service.url}${where}`);
      if (name === 'overview') await expect.poll(() => small.locator('#usage-chart canvas').count()).toBe(1);
      await phoneShot(name);
    }
    await small.goto(`${service.url}/account/keys`);
    await small.getByLabel(/^Name/).fill('phone');
    await small.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => small.locator('#new-key').isVisible()).toBe(true);
    await phoneShot('key-created');
    await small.getByRole('link', { name: 'Daily cap of phone' }).click();
    await phoneShot('daily-cap');
    await small.getByRole('link', { name: 'Cancel' }).click();
    await small.getByRole('link', { name: 'Revoke phone' }).click();
    await phoneShot('revoke-confirmation');
    await small.getByRole('link', { name: 'Cancel' }).click();
    await small.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect.poll(() => small.getByText('You are signed out').isVisible()).toBe(true);
    await phoneShot('sign-in');

    // Signed out, at a phone's width: signing up, then a forgotten password from the email to the new one.
    await small.goto(`${service.url}/account/sign-up`);
    await phoneShot('sign-up');
    await small.getByLabel('Email').fill('phone@example.com');
    await small.getByLabel(/^Password/).fill(PASSWORD);
    await small.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => small.getByRole('heading', { name: 'Check your email' }).isVisible()).toBe(true);
    await phoneShot('check-your-email');
    await small.goto((await smtp.next('phone@example.com')).link!);
    await phoneShot('confirm');
    await small.goto(`${service.url}/account/forgot-password`);
    await phoneShot('forgot-password');
    await page.goto(`${service.url}/account/forgot-password`);
    await shot(page, 'desktop-11-forgot-password');
    await small.getByLabel('Email').fill(EMAIL);
    await small.getByRole('button', { name: 'Email me a link' }).click();
    await expect.poll(() => small.getByRole('heading', { name: 'Check your email' }).isVisible()).toBe(true);
    const reset = await smtp.next(EMAIL);
    expect(reset.subject).toBe('Reset your password');
    await page.goto(reset.link!);
    await shot(page, 'desktop-12-reset-password');
    await small.goto(reset.link!);
    await phoneShot('reset-password');
    await small.getByLabel(/^New password/).fill('another long passphrase');
    await small.getByRole('button', { name: 'Set the new password' }).click();
    await expect.poll(() => small.getByText('Your password is changed').isVisible()).toBe(true);
    await phoneShot('sign-in-after-reset');
    // The reset signed the desktop browser out too.
    await page.goto(`${service.url}/account/keys`);
    expect(new URL(page.url()).pathname).toBe('/account/sign-in');

    expect(violations).toEqual([]);
    await phone.close();
    await desktop.close();
  }, 90_000);
  /**
   * axe-core's findings on the page as it is now: every rule it runs by default (WCAG 2.x A and AA,
   * and its best practices), each violation named with the elements it found.
   */
  async function axeViolations(page: Page): Promise<string[]> {
    await page.evaluate(AXE_SOURCE);
    const { passes, violations } = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(): Promise<any> } }).axe;
      const run = await axe.run();
      return {
        passes: run.passes.length as number,
        violations: run.violations.map(
          (v: { id: string; help: string; nodes: { target: string[] }[] }) =>
            `${v.id} (${v.help}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
        ) as string[],
      };
    });
    // axe ran its rules on the page: some passed (a page it could not read would pass none).
    expect(passes).toBeGreaterThan(10);
    return violations;
  }

  it('every account page, signed out and in, at 1280 and 390 px: axe finds no violation, nothing wider than ' +
    'the screen', async () => {
    const found: string[] = [];
    const walker = 'walker@example.com';
    const audited = new Set<string>();
    /** Audits the page as it is: axe, the width, a screenshot named by the viewport. */
    async function audit(page: Page, name: string) {
      const width = page.viewportSize()!.width;
      const label = `${width}-${name}`;
      audited.add(name);
      for (const violation of await axeViolations(page)) found.push(`${label}: ${violation}`);
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      if (scrollWidth > width) found.push(`${label}: the page is ${scrollWidth} px wide`);
      expect(await page.evaluate(() => document.documentElement.lang), label).toBe('en');
      expect(await page.title(), label).not.toBe('');
      await shot(page, `walk-${label}`);
    }

    // Signed out: the pages reached before a session, and the ones the emails lead to.
    const signedOut: [string, string][] = [
      ['sign-in', '/account/sign-in'],
      ['sign-up', '/account/sign-up'],
      ['forgot-password', '/account/forgot-password'],
      ['not-found-signed-out', '/account/no-such-page'],
    ];
    const desktop = await context(DESKTOP);
    const page = await desktop.newPage();
    for (const [name, where] of signedOut) {
      await page.goto(`${service.url}${where}`);
      await audit(page, name);
    }
    await page.goto(`${service.url}/account/sign-up`);
    await page.getByLabel('Email').fill(walker);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Check your email' }).isVisible()).toBe(true);
    await audit(page, 'check-your-email');
    const confirmLink = (await smtp.next(walker)).link!;
    await page.goto(`${service.url}/account/sign-up`);
    await page.getByLabel('Email').fill(walker);
    await page.getByLabel(/^Password/).fill('password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await audit(page, 'sign-up-refused');
    await page.goto(confirmLink);
    await audit(page, 'confirm');
    await page.getByRole('button', { name: 'Confirm my address' }).click();
    await expect.poll(() => page.getByText('Your email address is confirmed').isVisible()).toBe(true);
    await audit(page, 'sign-in-confirmed');
    // Confirming signed the walker in; the rest of this part is seen signed out.
    await page.context().clearCookies();
    await page.goto(confirmLink);
    await audit(page, 'confirm-used');
    await page.goto(`${service.url}/account/forgot-password`);
    await page.getByLabel('Email').fill(walker);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    const resetLink = (await smtp.next(walker)).link!;
    await page.goto(resetLink);
    await audit(page, 'reset-password');
    await page.goto(`${service.url}/account/sign-in`);
    await page.getByLabel('Email').fill(walker);
    await page.getByLabel('Password').fill('not my password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await audit(page, 'sign-in-refused');

    // Signed in: every page of the navigation, then the ones its forms lead to.
    await page.getByLabel('Email').fill(walker);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'Overview' }).isVisible()).toBe(true);
    await audit(page, 'overview-new-account');
    const nav = await page
      .locator('nav[aria-label="Account"] a')
      .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
    const pages = nav.filter((where) => where.startsWith('/account'));
    expect(pages.length).toBeGreaterThanOrEqual(5);
    const signedIn: [string, string][] = pages.map((where) => [`nav${where.replaceAll('/', '-')}`, where]);
    for (const [name, where] of signedIn) {
      await page.goto(`${service.url}${where}`);
      await audit(page, name);
    }
    await page.goto(`${service.url}/account/keys`);
    await page.getByLabel(/^Name/).fill('walk');
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.locator('#new-key').isVisible()).toBe(true);
    await audit(page, 'new-key');
    const key = (await page.locator('#new-key').textContent())!.trim();
    await page.reload();
    await audit(page, 'new-key-shown-already');
    await page.getByRole('button', { name: 'Create key' }).click();
    await audit(page, 'new-key-refused');
    for (let i = 0; i < 3; i++) await api(`/api/v1/advertiser?name=${encodeURIComponent('Acme Outdoor GmbH')}`, key);
    await page.goto(`${service.url}/account/keys`);
    await page.getByRole('link', { name: 'Daily cap of walk' }).click();
    const capForm = new URL(page.url()).pathname;
    await audit(page, 'daily-cap');
    await page.getByLabel(/^Credits per day/).fill('lots');
    await page.getByRole('button', { name: 'Save the cap' }).click();
    await audit(page, 'daily-cap-refused');
    await page.getByLabel(/^Credits per day/).fill('9');
    await page.getByRole('button', { name: 'Save the cap' }).click();
    await audit(page, 'keys-capped');
    await page.getByRole('link', { name: 'Revoke walk' }).click();
    const revokeForm = new URL(page.url()).pathname;
    await audit(page, 'revoke');
    const keyId = capForm.split('/')[3];
    // Two-factor set up but not yet on: the code and the current password it asks for.
    await page.goto(`${service.url}/account/settings`);
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Turn on two-factor sign-in' }).isVisible()).toBe(true);
    const more: [string, string][] = [
      ['two-factor-setting-up', '/account/settings'],
      ['overview-with-usage', '/account'],
      ['overview-90-days-one-key', `/account?days=90&key=${keyId}`],
      ['ledger-filtered', `/account/ledger?key=${keyId}&kind=charge&from=2020-01-01&to=2099-12-31`],
      ['ledger-filtered-empty', '/account/ledger?kind=refund'],
      ['credits-after-checkout', '/account/credits?checkout=success'],
      ['alerts-refused', '/account/alerts'],
      ['not-found-signed-in', '/account/keys/none/cap'],
      ['daily-cap-form', capForm],
      ['revoke-form', revokeForm],
    ];
    for (const [name, where] of more) {
      await page.goto(`${service.url}${where}`);
      if (name === 'alerts-refused') {
        await page.getByLabel(/^Endpoint URL/).fill('http://not-https.example.com');
        await page.getByRole('button', { name: 'Save the webhook' }).click();
      }
      await audit(page, name);
    }

    // The same pages at a phone's width.
    const phoneIn = await context(PHONE, await desktop.storageState());
    const small = await phoneIn.newPage();
    for (const [name, where] of [...signedIn, ...more]) {
      await small.goto(`${service.url}${where}`);
      await audit(small, name);
    }
    await small.goto(`${service.url}/account/keys`);
    await small.getByLabel(/^Name/).fill('phone walk');
    await small.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => small.locator('#new-key').isVisible()).toBe(true);
    await audit(small, 'new-key');
    const phoneOut = await context(PHONE);
    const out = await phoneOut.newPage();
    for (const [name, where] of [
      ...signedOut,
      ['confirm-used', new URL(confirmLink).pathname + new URL(confirmLink).search],
    ]) {
      await out.goto(`${service.url}${where}`);
      await audit(out, name);
    }

    console.log(`axe walked ${audited.size} account pages at 1280 and 390 px`);
    expect(found).toEqual([]);
    expect(violations).toEqual([]);
    await Promise.all([desktop.close(), phoneIn.close(), phoneOut.close()]);
  }, 180_000);
});
