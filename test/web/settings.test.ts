// @module-tag runtime
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountPageHarness, createKeyOnPage, PASSWORD, startAccountPage } from '../support/account-page.ts';

describe('account settings', () => {
  let page: AccountPageHarness;
  beforeAll(async () => {
    page = await startAccountPage();
  });
  afterAll(() => page?.close());

  it('the settings page is in the navigation of every signed-in page, and needs a session', async () => {
    const browser = await page.signedIn('nav@example.com');
    const overview = await browser.get('/account');
    expect(overview.text).toContain('href="/account/settings"');
    const settings = await browser.get('/account/settings');
    expect(settings.status).toBe(200);
    expect(settings.text).toContain('aria-current="page"');
    expect(settings.text).toContain('<h1>Settings</h1>');
    expect((await page.browser().get('/account/settings')).location).toBe(
      '/account/sign-in?next=%2Faccount%2Fsettings',
    );
  });

  it('every settings form without the session’s form token is refused 403 and changes nothing', async () => {
    const browser = await page.signedIn('forged@example.com');
    await browser.get('/account/settings');
    for (const [path, fields] of [
      ['/account/settings/password', { current: PASSWORD, password: 'a brand new passphrase' }],
      ['/account/settings/email', { current: PASSWORD, email: 'elsewhere@example.com' }],
      ['/account/settings/two-factor/setup', {}],
      ['/account/settings/two-factor/disable', { current: PASSWORD }],
      ['/account/settings/delete', { current: PASSWORD, confirmation: 'yes' }],
    ] as const) {
      expect((await browser.post(path, { ...fields, csrf_token: 'forged' })).status, path).toBe(403);
      const crossSite = await browser.post(path, fields, { Origin: 'https://evil.example' });
      expect(crossSite.status, path).toBe(403);
    }
    const [row] = await page.db.sql<{ two_factor: string | null; deleted: boolean }[]>`
      SELECT l.totp_secret AS two_factor, a.deleted_at IS NOT NULL AS deleted
      FROM account_logins l JOIN accounts a ON a.id = l.account_id WHERE l.email_normalized = 'forged@example.com'`;
    expect(row).toEqual({ two_factor: null, deleted: false });
    const other = page.browser();
    await other.get('/account/sign-in');
    expect((await other.post('/account/sign-in', { email: 'forged@example.com', password: PASSWORD })).status).toBe(
      303,
    );
  });

  it('changing the password needs the current one, and signs every other browser out', async () => {
    const browser = await page.signedIn('change@example.com');
    const other = page.browser();
    await other.get('/account/sign-in');
    await other.post('/account/sign-in', { email: 'change@example.com', password: PASSWORD });
    expect((await other.get('/account')).status).toBe(200);

    await browser.get('/account/settings');
    const wrong = await browser.post('/account/settings/password', {
      current: 'not my password at all',
      password: 'a brand new passphrase',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('That is not your current password.');
    const weak = await browser.post('/account/settings/password', { current: PASSWORD, password: 'qwertyuiop' });
    expect(weak.status).toBe(400);
    expect(weak.text).toContain('aria-invalid="true"');
    expect((await other.get('/account')).status).toBe(200);

    const changed = await browser.post('/account/settings/password', {
      current: PASSWORD,
      password: 'a brand new passphrase',
    });
    expect(changed.status).toBe(303);
    expect(changed.location).toBe('/account/settings?done=password');
    expect((await browser.get('/account/settings?done=password')).text).toContain('Your password is changed');
    expect((await other.get('/account')).status).toBe(303);

    const again = page.browser();
    await again.get('/account/sign-in');
    expect((await again.post('/account/sign-in', { email: 'change@example.com', password: PASSWORD })).status).toBe(
      401,
    );
    expect(
      (await again.post('/account/sign-in', { email: 'change@example.com', password: 'a brand new passphrase' }))
        .status,
    ).toBe(303);
  });

  it('wrong current passwords count as failed sign-ins: after 10, 429', async () => {
    const browser = await page.signedIn('guessing@example.com');
    await browser.get('/account/settings');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (
          await browser.post('/account/settings/password', {
            current: `guess ${i}`,
            password: 'a brand new passphrase',
          })
        ).status,
      );
    expect(statuses).toEqual([...Array(10).fill(400), 429]);
  });
});

describe('changing the email address', () => {
  let page: AccountPageHarness;
  beforeAll(async () => {
    page = await startAccountPage();
  });
  afterAll(() => page?.close());

  it(
    'a new address needs the current password and a link sent to it; the old address is told; ' +
      'the change applies when the link is followed',
    async () => {
      const browser = await page.signedIn('old@example.com');
      await browser.get('/account/settings');
      const wrong = await browser.post('/account/settings/email', {
        email: 'new@example.com',
        current: 'not my password at all',
      });
      expect(wrong.status).toBe(400);
      expect(wrong.text).toContain('That is not your current password.');
      const asked = await browser.post('/account/settings/email', { email: 'New@Example.com', current: PASSWORD });
      expect(asked.status).toBe(303);
      expect((await browser.get(asked.location!)).text).toContain('Check the new address');

      const notice = await page.smtp.next('old@example.com');
      expect(notice.subject).toBe('A change of your email address was asked for');
      expect(notice.raw).toContain('New@Example.com');
      const mail = await page.smtp.next('new@example.com');
      expect(mail.subject).toBe('Confirm your new email address');
      const link = new URL(mail.link!);
      expect(link.pathname).toBe('/account/confirm-email');

      // Nothing changes until the link's button is used: the old address still signs in.
      expect((await browser.get(`${link.pathname}${link.search}`)).status).toBe(200);
      const [{ email }] = await page.db.sql<{ email: string }[]>`
        SELECT email FROM account_logins WHERE email_normalized = 'old@example.com'`;
      expect(email).toBe('old@example.com');

      const confirmed = await browser.post('/account/confirm-email', { token: link.searchParams.get('token')! });
      expect(confirmed.status).toBe(303);
      expect(confirmed.location).toBe('/account/settings?done=email-changed');
      expect((await browser.get('/account/settings')).text).toContain('New@Example.com');
      expect((await browser.post('/account/confirm-email', { token: link.searchParams.get('token')! })).status).toBe(
        410,
      );

      const other = page.browser();
      await other.get('/account/sign-in');
      expect((await other.post('/account/sign-in', { email: 'old@example.com', password: PASSWORD })).status).toBe(401);
      expect((await other.post('/account/sign-in', { email: 'new@example.com', password: PASSWORD })).status).toBe(303);
    },
  );

  const RETIRES =
    'a password reset or change retires a pending change of address: its link no longer moves the account';
  it(RETIRES, async () => {
    /** Signs up `owner`; someone who knew the password asks to move the account to `intruder`'s address. */
    const askedByAnIntruder = async (owner: string, intruder: string) => {
      const browser = await page.signedIn(owner);
      await browser.get('/account/settings');
      expect((await browser.post('/account/settings/email', { email: intruder, current: PASSWORD })).status).toBe(303);
      await page.smtp.next(owner);
      const link = new URL((await page.smtp.next(intruder)).link!);
      // The intruder opens the link at once: its button is on their screen, ready for later.
      const intruderBrowser = page.browser();
      expect((await intruderBrowser.get(`${link.pathname}${link.search}`)).status).toBe(200);
      return { browser, intruderBrowser, token: link.searchParams.get('token')! };
    };
    const stillAt = async (owner: string) =>
      (await page.db.sql`SELECT 1 FROM account_logins WHERE email = ${owner}`).length === 1;

    const beforeReset = await askedByAnIntruder('reset-owner@example.com', 'intruder-1@example.com');
    const owner = page.browser();
    await owner.get('/account/forgot-password');
    await owner.post('/account/forgot-password', { email: 'reset-owner@example.com' });
    const reset = new URL((await page.smtp.next('reset-owner@example.com')).link!).searchParams.get('token')!;
    const done = await owner.post('/account/reset-password', { token: reset, password: 'a brand new passphrase' });
    expect(done.status).toBe(303);

    const beforeChange = await askedByAnIntruder('change-owner@example.com', 'intruder-2@example.com');
    const changed = await beforeChange.browser.post('/account/settings/password', {
      current: PASSWORD,
      password: 'a brand new passphrase',
    });
    expect(changed.status).toBe(303);

    for (const { intruderBrowser, token } of [beforeReset, beforeChange]) {
      expect((await intruderBrowser.post('/account/confirm-email', { token })).status).toBe(410);
      expect((await intruderBrowser.get(`/account/confirm-email?token=${token}`)).status).toBe(410);
    }
    expect(await stillAt('reset-owner@example.com')).toBe(true);
    expect(await stillAt('change-owner@example.com')).toBe(true);
  });

  it('an address another account has gets no link, and the answer is the same', async () => {
    await page.signedIn('holder@example.com');
    const browser = await page.signedIn('mover@example.com');
    await browser.get('/account/settings');
    const asked = await browser.post('/account/settings/email', { email: 'holder@example.com', current: PASSWORD });
    expect(asked.status).toBe(303);
    expect(asked.location).toBe('/account/settings?done=email');
    await page.smtp.next('mover@example.com');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      page.smtp.received.filter(
        (mail) => mail.subject === 'Confirm your new email address' && mail.to.includes('holder@example.com'),
      ).length,
    ).toBe(0);
    const [{ email }] = await page.db.sql<{ email: string }[]>`
      SELECT l.email FROM account_logins l WHERE l.email_normalized = 'mover@example.com'`;
    expect(email).toBe('mover@example.com');
  });
});

describe('deleting the account', () => {
  let page: AccountPageHarness;
  beforeAll(async () => {
    page = await startAccountPage();
  });
  afterAll(() => page?.close());

  it(
    'needs the current password and a ticked confirmation; then keys answer 401, sessions end, ' +
      'personal data is erased, the ledger stays, and the address can sign up anew',
    async () => {
      const browser = await page.signedIn('leaving@example.com');
      const other = page.browser();
      await other.get('/account/sign-in');
      await other.post('/account/sign-in', { email: 'leaving@example.com', password: PASSWORD });
      const { key } = await createKeyOnPage(browser, { name: 'my laptop' });
      const call = () => page.app.request('http://localhost/api/v1/account', { headers: { 'x-api-key': key } });
      expect((await call()).status).toBe(200);
      const [{ account_id: accountId }] = await page.db.sql<{ account_id: number }[]>`
        SELECT account_id FROM account_logins WHERE email_normalized = 'leaving@example.com'`;
      await page.db.sql`
        INSERT INTO alert_webhooks (account_id, url, secret)
        VALUES (${accountId}, 'https://hooks.example/me', 's3cret')`;
      await page.db.sql`
        INSERT INTO alert_test_events (account_id, url, host, event_id, status, error, done_at)
        VALUES (${accountId}, 'https://hooks.example/me', '93.184.216.34', 'test_1', NULL,
                'refused by hooks.example/me', now())`;
      const [{ entries }] = await page.db.sql<{ entries: number }[]>`
        SELECT count(*)::int AS entries FROM ledger WHERE account_id = ${accountId}`;
      expect(entries).toBeGreaterThan(0);

      await browser.get('/account/settings');
      const unconfirmed = await browser.post('/account/settings/delete', { current: PASSWORD });
      expect(unconfirmed.status).toBe(400);
      expect(unconfirmed.text).toContain('Tick the box');
      const wrong = await browser.post('/account/settings/delete', {
        current: 'not my password at all',
        confirmation: 'yes',
      });
      expect(wrong.status).toBe(400);
      expect((await call()).status).toBe(200);

      const deleted = await browser.post('/account/settings/delete', { current: PASSWORD, confirmation: 'yes' });
      expect(deleted.status).toBe(303);
      expect(deleted.location).toBe('/account/sign-in?done=deleted');
      expect((await browser.get(deleted.location!)).text).toContain('Your account is deleted');
      const told = await page.smtp.next('leaving@example.com');
      expect(told.subject).toBe('Your account was deleted');
      expect((await call()).status).toBe(401);
      expect((await other.get('/account')).status).toBe(303);
      expect((await browser.get('/account')).status).toBe(303);

      const [account] = await page.db.sql<{ email: string | null; deleted: boolean; disabled: boolean }[]>`
        SELECT email, deleted_at IS NOT NULL AS deleted, disabled_at IS NOT NULL AS disabled
        FROM accounts WHERE id = ${accountId}`;
      expect(account).toEqual({ email: null, deleted: true, disabled: true });
      expect(await page.db.sql`SELECT 1 FROM account_logins WHERE account_id = ${accountId}`).toHaveLength(0);
      expect(await page.db.sql`SELECT 1 FROM alert_webhooks WHERE account_id = ${accountId}`).toHaveLength(0);
      expect(await page.db.sql`SELECT 1 FROM account_tokens WHERE account_id = ${accountId}`).toHaveLength(0);
      expect(
        JSON.stringify(await page.db.sql`SELECT url, error FROM alert_test_events WHERE account_id = ${accountId}`),
      ).not.toContain('hooks.example');
      expect(
        await page.db
          .sql`SELECT 1 FROM api_keys WHERE account_id = ${accountId} AND (revoked_at IS NULL OR name IS NOT NULL)`,
      ).toHaveLength(0);
      const [{ kept }] = await page.db.sql<{ kept: number }[]>`
        SELECT count(*)::int AS kept FROM ledger WHERE account_id = ${accountId}`;
      expect(kept).toBe(entries);
      const dump = JSON.stringify(
        await page.db.sql`
          SELECT * FROM accounts a LEFT JOIN api_keys k ON k.account_id = a.id WHERE a.id = ${accountId}`,
      );
      expect(dump).not.toContain('leaving@example.com');
      expect(dump).not.toContain('my laptop');

      const again = page.browser();
      await again.get('/account/sign-in');
      expect((await again.post('/account/sign-in', { email: 'leaving@example.com', password: PASSWORD })).status).toBe(
        401,
      );
      const anew = await page.signedIn('leaving@example.com');
      expect((await anew.get('/account')).status).toBe(200);
    },
  );
});

describe('two-factor sign-in', () => {
  let page: AccountPageHarness;
  beforeAll(async () => {
    page = await startAccountPage();
  });
  afterAll(() => page?.close());

  /** The app's code for the secret the page showed, `steps` periods from now. */
  const codeOf = (secret: string, steps = 0) =>
    new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

  async function turnedOn(email: string) {
    const browser = await page.signedIn(email);
    await browser.get('/account/settings');
    const started = await browser.post('/account/settings/two-factor/setup', {});
    expect(started.status).toBe(303);
    const setup = await browser.get('/account/settings');
    const secret = /data-testid="totp-secret">([A-Z2-7]+)</.exec(setup.text)![1];
    const uri = /data-testid="totp-uri">([^<]+)</.exec(setup.text)![1];
    // The QR code is drawn by the service itself: an SVG in the page, nothing fetched elsewhere.
    const qr = /class="qr-code" src="data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)"/.exec(setup.text)![1];
    expect(Buffer.from(qr, 'base64').toString()).toMatch(/^<svg /);
    return { browser, secret, uri };
  }

  async function passwordStep(email: string) {
    const browser = page.browser();
    await browser.get('/account/sign-in');
    const signedIn = await browser.post('/account/sign-in', { email, password: PASSWORD, next: '/account/keys' });
    return { browser, signedIn };
  }

  it(
    'set up with the secret shown and a code, 10 recovery codes shown once; then a sign-in asks for a code ' +
      'after the password, a code works once, a recovery code once',
    async () => {
      const { browser, secret, uri } = await turnedOn('totp@example.com');
      expect(uri.replaceAll('&amp;', '&')).toMatch(/^otpauth:\/\/totp\/.*secret=[A-Z2-7]+/);
      expect(uri).toContain(secret);
      // Until a code confirms it, nothing changes at sign-in.
      expect((await passwordStep('totp@example.com')).signedIn.location).toBe('/account/keys');

      const wrong = await browser.post('/account/settings/two-factor/confirm', { code: '000000', current: PASSWORD });
      expect(wrong.status).toBe(400);
      // A session alone turns nothing on: the current password is asked for (R12.17).
      const noPassword = await browser.post('/account/settings/two-factor/confirm', { code: codeOf(secret) });
      expect(noPassword.status).toBe(400);
      expect(noPassword.text).toContain('That is not your current password.');
      const on = await browser.post('/account/settings/two-factor/confirm', {
        code: codeOf(secret),
        current: PASSWORD,
      });
      expect(on.status).toBe(200);
      const codes = [...on.text.matchAll(/<code>([A-Z2-7]{4}(?:-[A-Z2-7]{4}){3})<\/code>/g)].map((m) => m[1]);
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      const settings = await browser.get('/account/settings');
      for (const code of codes) expect(settings.text).not.toContain(code);
      expect(settings.text).toContain('10 of 10 recovery codes are unused');
      const stored = await page.db.sql<{ code_hash: Buffer }[]>`
        SELECT code_hash FROM account_recovery_codes
        WHERE account_id = (SELECT account_id FROM account_logins WHERE email_normalized = 'totp@example.com')`;
      expect(stored).toHaveLength(10);
      expect(JSON.stringify(stored)).not.toContain(codes[0]);

      // The password alone no longer signs in: no session until the code.
      const { browser: second, signedIn } = await passwordStep('totp@example.com');
      expect(signedIn.status).toBe(303);
      expect(signedIn.location).toBe('/account/sign-in/code');
      expect((await second.get('/account')).status).toBe(303);
      expect((await second.get('/account/sign-in/code')).text).toContain('Enter your sign-in code');
      expect((await second.post('/account/sign-in/code', { code: '123456' })).status).toBe(401);
      const code = codeOf(secret, 1);
      const done = await second.post('/account/sign-in/code', { code });
      expect(done.status).toBe(303);
      expect(done.location).toBe('/account/keys');
      expect((await second.get('/account')).status).toBe(200);

      // The same code again is refused; a recovery code works once.
      const { browser: third } = await passwordStep('totp@example.com');
      await third.get('/account/sign-in/code');
      expect((await third.post('/account/sign-in/code', { code })).status).toBe(401);
      expect((await third.post('/account/sign-in/code', { code: codes[3].toLowerCase() })).status).toBe(303);
      const { browser: fourth } = await passwordStep('totp@example.com');
      await fourth.get('/account/sign-in/code');
      expect((await fourth.post('/account/sign-in/code', { code: codes[3] })).status).toBe(401);
      expect((await fourth.post('/account/sign-in/code', { code: codes[4] })).status).toBe(303);
    },
  );

  it('wrong codes count against the sign-in limits: after 10 failures, 429 even for the right code', async () => {
    const { browser, secret } = await turnedOn('guess-code@example.com');
    await browser.post('/account/settings/two-factor/confirm', { code: codeOf(secret), current: PASSWORD });
    const { browser: guesser } = await passwordStep('guess-code@example.com');
    await guesser.get('/account/sign-in/code');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await guesser.post('/account/sign-in/code', { code: String(100000 + i) })).status);
    expect(statuses).toEqual(Array(10).fill(401));
    const right = await guesser.post('/account/sign-in/code', { code: codeOf(secret, 1) });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it("every security change is told by email to the account's address, a change of address to both", async () => {
    const told = async (address: string, subject: string) => {
      const mail = await page.smtp.next(address);
      expect(mail.subject).toBe(subject);
      expect(mail.raw).toContain('/account/forgot-password');
    };
    const { browser, secret } = await turnedOn('told@example.com');
    await browser.post('/account/settings/two-factor/confirm', { code: codeOf(secret), current: PASSWORD });
    await told('told@example.com', 'Two-factor sign-in was turned on');
    await browser.post('/account/settings/two-factor/disable', { current: PASSWORD });
    await told('told@example.com', 'Two-factor sign-in was turned off');
    await browser.post('/account/settings/password', { current: PASSWORD, password: 'a brand new passphrase' });
    await told('told@example.com', 'Your password was changed');
    await browser.post('/account/settings/email', { email: 'told-new@example.com', current: 'a brand new passphrase' });
    await told('told@example.com', 'A change of your email address was asked for');
    const link = new URL((await page.smtp.next('told-new@example.com')).link!);
    await browser.get(`${link.pathname}${link.search}`);
    await browser.post('/account/confirm-email', { token: link.searchParams.get('token')! });
    await told('told@example.com', 'Your sign-in address was changed');
    await told('told-new@example.com', 'Your sign-in address was changed');
  });

  it('turning it off needs the password; then the password alone signs in again', async () => {
    const { browser, secret } = await turnedOn('off@example.com');
    await browser.post('/account/settings/two-factor/confirm', { code: codeOf(secret), current: PASSWORD });
    expect(
      (await browser.post('/account/settings/two-factor/disable', { current: 'not my password at all' })).status,
    ).toBe(400);
    expect((await passwordStep('off@example.com')).signedIn.location).toBe('/account/sign-in/code');
    const off = await browser.post('/account/settings/two-factor/disable', { current: PASSWORD });
    expect(off.status).toBe(303);
    expect((await browser.get(off.location!)).text).toContain('Two-factor sign-in is off');
    expect((await passwordStep('off@example.com')).signedIn.location).toBe('/account/keys');
  });
});
