// @module-tag runtime
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logMailer } from '../../src/mail/mailer.ts';
import { type AccountPageHarness, PASSWORD, startAccountPage } from '../support/account-page.ts';
import { testApp } from '../support/app.ts';
import { WebClient } from '../support/web.ts';

describe('signing up and in', () => {
  let page: AccountPageHarness;
  beforeAll(async () => {
    page = await startAccountPage();
  });
  afterAll(() => page?.close());

  it('sign up, confirm the address by the emailed link (which signs in), sign in, sign out', async () => {
    const browser = page.browser();
    expect((await browser.get('/account/sign-up')).status).toBe(200);
    const signedUp = await browser.post('/account/sign-up', { email: 'Ada@Example.com', password: PASSWORD });
    expect(signedUp.status).toBe(200);
    expect(signedUp.text).toContain('Check your email');

    const mail = await page.smtp.next('ada@example.com');
    expect(mail.subject).toBe('Confirm your email address');
    const link = new URL(mail.link!);
    expect(link.pathname).toBe('/account/verify');

    // Before the address is confirmed, the right password does not sign in.
    await browser.get('/account/sign-in');
    const early = await browser.post('/account/sign-in', { email: 'ada@example.com', password: PASSWORD });
    expect(early.status).toBe(401);
    expect(early.text).toContain('Confirm your email address first');
    await page.smtp.next('ada@example.com');

    // Opening the link changes nothing; its button does.
    const opened = await browser.get(`${link.pathname}${link.search}`);
    expect(opened.status).toBe(200);
    const [{ verified }] = await page.db.sql<{ verified: boolean }[]>`
      SELECT email_verified_at IS NOT NULL AS verified FROM account_logins WHERE email_normalized = 'ada@example.com'`;
    expect(verified).toBe(false);
    const confirmed = await browser.post('/account/verify', { token: link.searchParams.get('token')! });
    expect(confirmed.status).toBe(303);
    expect(confirmed.location).toBe('/account/welcome');
    // Confirming signed this browser in.
    const welcome = await browser.get('/account/welcome');
    expect(welcome.status).toBe(200);
    expect(welcome.text).toContain('Your email address is confirmed, and you are signed in.');
    expect(welcome.text).toContain('href="/account/keys"');
    expect((await browser.get('/account')).status).toBe(200);
    await browser.post('/account/sign-out', {});

    await browser.get('/account/sign-in');
    const signedIn = await browser.post('/account/sign-in', { email: 'ADA@example.com ', password: PASSWORD });
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe('/account');
    const overview = await browser.get('/account');
    expect(overview.status).toBe(200);
    expect(overview.text).toContain('Ada@Example.com');

    const signedOut = await browser.post('/account/sign-out', {});
    expect(signedOut.status).toBe(303);
    expect((await browser.get('/account')).location).toBe('/account/sign-in?next=%2Faccount');
  });

  it('a confirmation link works once', async () => {
    const browser = page.browser();
    await browser.get('/account/sign-up');
    await browser.post('/account/sign-up', { email: 'once@example.com', password: PASSWORD });
    const link = new URL((await page.smtp.next('once@example.com')).link!);
    const token = link.searchParams.get('token')!;
    await browser.get(`${link.pathname}${link.search}`);
    expect((await browser.post('/account/verify', { token })).status).toBe(303);
    expect((await browser.get(`${link.pathname}${link.search}`)).status).toBe(410);
    // Another browser with the same link is not signed in by it.
    const other = page.browser();
    await other.get('/account/sign-in');
    const again = await other.post('/account/verify', { token });
    expect(again.status).toBe(410);
    expect(again.text).toContain('This link no longer works');
    expect((await other.get('/account')).status).toBe(303);
  });

  it('a confirmation link left after the address was confirmed otherwise signs nobody in', async () => {
    const browser = page.browser();
    await browser.get('/account/sign-up');
    await browser.post('/account/sign-up', { email: 'two-links@example.com', password: PASSWORD });
    const link = new URL((await page.smtp.next('two-links@example.com')).link!);
    // A password reset proves the address too, and leaves the confirmation link unused.
    await browser.get('/account/forgot-password');
    await browser.post('/account/forgot-password', { email: 'two-links@example.com' });
    const reset = new URL((await page.smtp.next('two-links@example.com')).link!);
    await browser.get(`${reset.pathname}${reset.search}`);
    const token = reset.searchParams.get('token')!;
    expect((await browser.post('/account/reset-password', { token, password: 'a brand new passphrase' })).status).toBe(
      303,
    );
    const other = page.browser();
    await other.get(`${link.pathname}${link.search}`);
    const late = await other.post('/account/verify', { token: link.searchParams.get('token')! });
    expect(late.status).toBe(303);
    expect(late.location).toBe('/account/sign-in?done=verified');
    expect((await other.get('/account')).status).toBe(303);
  });

  it('signing up with a registered address answers the same page, creates nothing and emails its holder', async () => {
    await page.signedIn('taken@example.com');
    const [{ before }] = await page.db.sql<{ before: number }[]>`SELECT count(*)::int AS before FROM accounts`;
    const browser = page.browser();
    await browser.get('/account/sign-up');
    const again = await browser.post('/account/sign-up', {
      email: 'TAKEN@example.com',
      password: 'another passphrase',
    });
    expect(again.status).toBe(200);
    expect(again.text).toContain('Check your email');
    const notice = await page.smtp.next('taken@example.com');
    expect(notice.subject).toBe('You already have an account');
    const [{ after }] = await page.db.sql<{ after: number }[]>`SELECT count(*)::int AS after FROM accounts`;
    expect(after).toBe(before);
  });

  it.each([
    ['short', 'Use at least 10 characters.'],
    ['password1234', 'among the most common'],
    ['Password1234', 'among the most common'],
    ['rules@example.com', 'Do not use your email address'],
  ])('the password %j is refused next to the form, and no account is made', async (password, message) => {
    const browser = page.browser();
    await browser.get('/account/sign-up');
    const refused = await browser.post('/account/sign-up', { email: 'rules@example.com', password });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(message);
    expect(refused.text).toContain('aria-invalid="true"');
    // The field at fault names the message, so a screen reader reads it with the field.
    expect(refused.text).toContain('aria-describedby="form-problem"');
    expect(refused.text).toContain('id="form-problem"');
    const rows = await page.db.sql`SELECT 1 FROM account_logins WHERE email_normalized = 'rules@example.com'`;
    expect(rows.length).toBe(0);
  });

  it('passwords are stored as argon2id hashes only', async () => {
    await page.signedIn('hash@example.com');
    const [{ password_hash }] = await page.db.sql<{ password_hash: string }[]>`
      SELECT password_hash FROM account_logins WHERE email_normalized = 'hash@example.com'`;
    expect(password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(password_hash).not.toContain(PASSWORD);
  });

  it('sign out everywhere ends the sessions of every browser of the account', async () => {
    const first = await page.signedIn('everywhere@example.com');
    const second = page.browser();
    await second.get('/account/sign-in');
    await second.post('/account/sign-in', { email: 'everywhere@example.com', password: PASSWORD });
    expect((await second.get('/account')).status).toBe(200);

    await first.get('/account');
    expect((await first.post('/account/sign-out-everywhere', {})).status).toBe(303);
    expect((await first.get('/account')).status).toBe(303);
    expect((await second.get('/account')).status).toBe(303);
  });

  it(
    'a forgotten password is reset by the emailed link: the old one stops working, ' +
      'every session ends, the link works once',
    async () => {
      const other = await page.signedIn('forgot@example.com');
      const browser = page.browser();
      await browser.get('/account/forgot-password');
      const asked = await browser.post('/account/forgot-password', { email: 'forgot@example.com' });
      expect(asked.status).toBe(200);
      const mail = await page.smtp.next('forgot@example.com');
      expect(mail.subject).toBe('Reset your password');
      const link = new URL(mail.link!);
      const token = link.searchParams.get('token')!;
      expect((await browser.get(`${link.pathname}${link.search}`)).status).toBe(200);
      const weak = await browser.post('/account/reset-password', { token, password: 'qwertyuiop' });
      expect(weak.status).toBe(400);
      const reset = await browser.post('/account/reset-password', { token, password: 'a brand new passphrase' });
      expect(reset.status).toBe(303);
      expect(reset.location).toBe('/account/sign-in?done=reset');
      expect(
        (await browser.post('/account/reset-password', { token, password: 'yet another passphrase' })).status,
      ).toBe(410);
      expect((await other.get('/account')).status).toBe(303);

      await browser.get('/account/sign-in');
      expect((await browser.post('/account/sign-in', { email: 'forgot@example.com', password: PASSWORD })).status).toBe(
        401,
      );
      const signedIn = await browser.post('/account/sign-in', {
        email: 'forgot@example.com',
        password: 'a brand new passphrase',
      });
      expect(signedIn.status).toBe(303);
    },
  );

  it('asking for a new reset link retires the older one', async () => {
    await page.signedIn('twice@example.com');
    const browser = page.browser();
    await browser.get('/account/forgot-password');
    await browser.post('/account/forgot-password', { email: 'twice@example.com' });
    const older = new URL((await page.smtp.next('twice@example.com')).link!);
    await browser.post('/account/forgot-password', { email: 'twice@example.com' });
    const newer = new URL((await page.smtp.next('twice@example.com')).link!);
    expect((await browser.get(`${older.pathname}${older.search}`)).status).toBe(410);
    const olderToken = older.searchParams.get('token')!;
    expect(
      (await browser.post('/account/reset-password', { token: olderToken, password: 'a brand new passphrase' })).status,
    ).toBe(410);
    expect((await browser.get(`${newer.pathname}${newer.search}`)).status).toBe(200);
    const newerToken = newer.searchParams.get('token')!;
    expect(
      (await browser.post('/account/reset-password', { token: newerToken, password: 'a brand new passphrase' })).status,
    ).toBe(303);
  });

  it('a used or expired reset link offers a new one', async () => {
    await page.signedIn('used@example.com');
    const browser = page.browser();
    await browser.get('/account/forgot-password');
    await browser.post('/account/forgot-password', { email: 'used@example.com' });
    const link = new URL((await page.smtp.next('used@example.com')).link!);
    const token = link.searchParams.get('token')!;
    await browser.get(`${link.pathname}${link.search}`);
    await browser.post('/account/reset-password', { token, password: 'a brand new passphrase' });
    const used = await browser.get(`${link.pathname}${link.search}`);
    expect(used.status).toBe(410);
    expect(used.text).toContain('This link no longer works');
    expect(used.text).toContain('action="/account/forgot-password"');
    expect(used.text).toContain('Email me a new link');
    // Its form asks for a new link, which works.
    const asked = await browser.post('/account/forgot-password', { email: 'used@example.com' });
    expect(asked.status).toBe(200);
    const fresh = new URL((await page.smtp.next('used@example.com')).link!);
    expect((await browser.get(`${fresh.pathname}${fresh.search}`)).status).toBe(200);
  });

  it('a reset link expires after an hour', async () => {
    await page.signedIn('late@example.com');
    const browser = page.browser();
    await browser.get('/account/forgot-password');
    await browser.post('/account/forgot-password', { email: 'late@example.com' });
    const link = new URL((await page.smtp.next('late@example.com')).link!);
    const [{ lifetime }] = await page.db.sql<{ lifetime: number }[]>`
      SELECT extract(epoch FROM expires_at - created_at)::int AS lifetime FROM account_tokens
      WHERE purpose = 'reset_password' AND used_at IS NULL
        AND account_id = (SELECT account_id FROM account_logins WHERE email_normalized = 'late@example.com')`;
    expect(lifetime).toBe(3600);
    await page.db.sql`
      UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'reset_password'
        AND account_id = (SELECT account_id FROM account_logins WHERE email_normalized = 'late@example.com')`;
    expect((await browser.get(`${link.pathname}${link.search}`)).status).toBe(410);
    const token = link.searchParams.get('token')!;
    expect((await browser.post('/account/reset-password', { token, password: 'a brand new passphrase' })).status).toBe(
      410,
    );
  });

  it('a sign-in sends the browser on only to a page of the account page', async () => {
    await page.signedIn('next@example.com');
    for (const [next, expected] of [
      ['/account/keys', '/account/keys'],
      ['https://evil.example/account', '/account'],
      ['//evil.example/account', '/account'],
      ['/docs', '/account'],
    ]) {
      const browser = page.browser();
      await browser.get(`/account/sign-in?next=${encodeURIComponent(next)}`);
      const signedIn = await browser.post('/account/sign-in', { email: 'next@example.com', password: PASSWORD, next });
      expect(signedIn.location, next).toBe(expected);
    }
  });

  it('the session cookie is HttpOnly and SameSite=Lax; over HTTPS also Secure, with the __Host- prefix', async () => {
    await page.signedIn('cookie@example.com');
    for (const secureCookies of [false, true]) {
      const app = testApp({
        sql: page.db.sql,
        web: {
          publicUrl: () => new URL('https://api.example'),
          secureCookies,
          log: () => {},
          mailer: logMailer(() => {}),
        },
      });
      const browser = new WebClient(app, 'http://localhost');
      await browser.get('/account/sign-in');
      const signedIn = await browser.post('/account/sign-in', { email: 'cookie@example.com', password: PASSWORD });
      const session = signedIn.headers.getSetCookie().find((line) => line.includes('alk_session='))!;
      expect(session).toMatch(secureCookies ? /^__Host-alk_session=/ : /^alk_session=/);
      expect(session).toContain('HttpOnly');
      expect(session).toContain('SameSite=Lax');
      expect(session).toContain('Path=/');
      expect(session.includes('Secure')).toBe(secureCookies);
    }
  });

  it(
    'the pages keep the service’s security headers, with a policy that allows only its own ' + 'scripts and styles',
    async () => {
      const answer = await page.browser().get('/account/sign-in');
      expect(answer.headers.get('content-security-policy')).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
          "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      );
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
      expect(answer.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    },
  );
});
