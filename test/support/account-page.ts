import type { Resolve } from '../../src/alerts/receiver-addresses.ts';
import type { WebhookPostOptions } from '../../src/alerts/webhook-post.ts';
import type { App } from '../../src/app.ts';
import type { OperatorSettings } from '../../src/config.ts';
import { connect, type Sql } from '../../src/data/client.ts';
import { withOperatorSignature } from '../../src/mail/operator-signature.ts';
import { smtpMailer } from '../../src/mail/smtp.ts';
import { createLogger } from '../../src/observability/logger.ts';
import type { StripePayments } from '../../src/payments/stripe-payments.ts';
import { testApp } from './app.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { startTestSmtp, type TestSmtp } from './mail.ts';
import { type Page, WebClient } from './web.ts';

export const PASSWORD = 'a long passphrase of mine';

const nothingResolves: Resolve = async (hostname) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

/** The app on a new database, its emails going to a test SMTP server, every log line kept. */
export interface AccountPageHarness {
  db: TestDatabase;
  smtp: TestSmtp;
  app: App;
  /** The request log and the service's lines, as written. */
  logged: string[];
  browser(): WebClient;
  /** Signs up and confirms the emailed link (which signs in): a browser with a session. */
  signedIn(email: string, password?: string): Promise<WebClient>;
  close(): Promise<void>;
}

/**
 * `payments`: the credit purchases to offer, made on the app's own pool (none by default);
 * `operator`: who runs the service (a local start's defaults unless given), signing the emails as the service does;
 * `webhooks`: how the alerts page checks and reaches webhooks; by default no host name resolves,
 * so no test's page reaches the network.
 */
export async function startAccountPage({
  payments,
  operator,
  webhooks = { resolve: nothingResolves },
}: {
  payments?: (sql: Sql) => StripePayments;
  operator?: OperatorSettings;
  webhooks?: WebhookPostOptions;
} = {}): Promise<AccountPageHarness> {
  const db = await createTestDatabase();
  const smtp = await startTestSmtp();
  const mailer = smtpMailer(smtp.url, 'Advertiser Lookup API <no-reply@localhost>');
  const logged: string[] = [];
  // A pool like the service's request pool (no array types), so the pages run as they do there.
  const requestPool = connect(db.url, 10, { fetchArrayTypes: false });
  const app = testApp({
    sql: requestPool,
    rateLimit: { requests: 0, windowSeconds: 60 },
    payments: payments?.(requestPool) ?? null,
    ...(operator && { operator }),
    logger: createLogger({ level: 'info', destination: { write: (chunk) => void logged.push(chunk) } }),
    web: {
      publicUrl: () => new URL('http://localhost'),
      secureCookies: false,
      log: (line) => void logged.push(line),
      mailer: operator ? withOperatorSignature(mailer, operator) : mailer,
      webhooks,
    },
  });
  const harness: AccountPageHarness = {
    db,
    smtp,
    app,
    logged,
    browser: () => new WebClient(app),
    async signedIn(email, password = PASSWORD) {
      const browser = new WebClient(app);
      await browser.get('/account/sign-up');
      const signedUp = await browser.post('/account/sign-up', { email, password });
      if (signedUp.status !== 200) throw new Error(`sign-up answered ${signedUp.status}: ${signedUp.text}`);
      const mail = await smtp.next(email);
      const link = new URL(mail.link!);
      await browser.get(`${link.pathname}${link.search}`);
      // Confirming the address signs the browser in.
      const confirmed = await browser.post('/account/verify', { token: link.searchParams.get('token')! });
      if (confirmed.status !== 303) throw new Error(`confirming answered ${confirmed.status}: ${confirmed.text}`);
      const welcome = await browser.get('/account/welcome');
      if (welcome.status !== 200) throw new Error(`the welcome page answered ${welcome.status}`);
      return browser;
    },
    async close() {
      mailer.close();
      await requestPool.end({ timeout: 5 });
      await smtp.close();
      await db.drop();
    },
  };
  return harness;
}

/**
 * Creates a key on the keys page as a browser does: the post redirects to the page that shows the
 * new key once (docs/product-rules.md R12.30). `key` is the plaintext that page shows.
 */
export async function createKeyOnPage(
  browser: WebClient,
  fields: Record<string, string>,
): Promise<{ key: string; page: Page; posted: Page }> {
  await browser.get('/account/keys');
  const posted = await browser.post('/account/keys', fields);
  if (posted.status !== 303 || posted.location !== '/account/keys/new')
    throw new Error(`creating a key answered ${posted.status} ${posted.location}: ${posted.text}`);
  const page = await browser.get(posted.location);
  const key = /id="new-key">([^<]+)</.exec(page.text)?.[1].trim();
  if (key === undefined) throw new Error(`the new key's page shows no key: ${page.text}`);
  return { key, page, posted };
}
