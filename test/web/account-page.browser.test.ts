import fs from 'node:fs';
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
const PASSWORD = 'a long passphrase of mine';

/**
 * The account page end to end, as a newcomer uses it: the real service (its own process) on a
 * real database, its emails on a real SMTP server in this process, the pages in Chromium.
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
    await expect.poll(() => page.getByText('Your email address is confirmed').isVisible()).toBe(true);
    await shot(page, 'desktop-4-sign-in');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
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
    expect(alert.raw).toContain('fell to 182 credits');
    await page.getByLabel(/^Endpoint URL/).fill('https://hooks.example.com/balance');
    await page.getByRole('button', { name: 'Save the webhook' }).click();
    await expect.poll(() => page.getByText('The webhook is saved.').isVisible()).toBe(true);
    expect(await page.getByTestId('deliveries').textContent()).toContain('182 (below 185)');
    await shot(page, 'desktop-8c-alerts');

    // Buying credits (docs/product-rules.md §13): Buy → Stripe Checkout (the stand-in) → Pay → back,
    // and the balance goes up once Stripe's signed event reached the webhook.
    await page.getByRole('link', { name: 'Buy credits' }).click();
    expect(await page.getByTestId('balance').textContent()).toBe('182');
    await shot(page, 'desktop-8d-buy-credits');
    await page.getByRole('button', { name: 'Buy Starter: 1,000 credits' }).click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`^${stripe.url}/pay/cs_test_`));
    await page.getByRole('button', { name: 'Pay' }).click();
    await expect.poll(() => page.getByText('your payment went through').isVisible()).toBe(true);
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
});
