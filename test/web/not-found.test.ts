import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountPageHarness, startAccountPage } from '../support/account-page.ts';

describe('an unknown page of the account page', () => {
  let page: AccountPageHarness;
  beforeAll(async () => {
    page = await startAccountPage();
  });
  afterAll(() => page?.close());

  it('answers 404 with a page of its own: a title, its language and a way back', async () => {
    const signedOut = page.browser();
    for (const path of ['/account/nope', '/account/keys/abc/cap', '/account/ledger/2026']) {
      const answer = await signedOut.get(path);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('content-type'), path).toMatch(/^text\/html/);
      expect(answer.text).toContain('<html lang="en">');
      expect(answer.text).toContain('<title>Page not found · Advertiser Lookup API</title>');
      expect(answer.text).toContain('href="/account/sign-in"');
    }
    const signedIn = await page.signedIn('lost@example.com');
    const answer = await signedIn.get('/account/settings/nothing-here');
    expect(answer.status).toBe(404);
    expect(answer.text).toContain('<a href="/account">Back to your account</a>');
    expect(answer.text).toContain('aria-label="Account"'); // the navigation, with sign-out
  });
});
