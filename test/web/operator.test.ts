import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorSettings } from '../../src/config.ts';
import { type AccountPageHarness, startAccountPage } from '../support/account-page.ts';

const OPERATOR: OperatorSettings = {
  companyName: 'Lookup Ltd',
  supportEmail: 'help@lookup.example',
  termsUrl: 'https://lookup.example/terms',
};

/** docs/product-rules.md R13.5: who runs the service, on every page and in every email. */
describe('the operator on the account page and in its emails', () => {
  let page: AccountPageHarness;
  beforeAll(async () => {
    page = await startAccountPage({ operator: OPERATOR });
  });
  afterAll(() => page?.close());

  it('every page names the operator, its support address and its terms; emails are signed the same', async () => {
    const signedOut = await page.browser().get('/account/sign-in');
    expect(signedOut.text).toContain('<footer class="site muted">');
    expect(signedOut.text).toContain('Lookup Ltd');
    expect(signedOut.text).toContain('<a href="mailto:help@lookup.example">help@lookup.example</a>');
    expect(signedOut.text).toContain('<a href="https://lookup.example/terms">Terms of service</a>');

    const browser = await page.browser();
    await browser.get('/account/sign-up');
    await browser.post('/account/sign-up', { email: 'signed@example.com', password: 'a long passphrase of mine' });
    const mail = await page.smtp.next('signed@example.com');
    expect(mail.raw).toMatch(
      new RegExp(
        [
          '--',
          'Lookup Ltd',
          'Questions\\? Write to help@lookup\\.example',
          'Terms of service:',
          'https://lookup\\.example/terms',
        ].join('\\r?\\n'),
      ),
    );
  });

  it('without Stripe, the credits page says to write to the support address, and shows no command', async () => {
    const browser = await page.signedIn('no-stripe@example.com');
    const credits = await browser.get('/account/credits');
    expect(credits.text).toContain('To buy credits, write to <a href="mailto:help@lookup.example">');
    expect(credits.text).not.toContain('npm run admin');
    expect(credits.text).not.toMatch(/the operator/i);
    const refused = await browser.post('/account/credits/checkout', { pack: 'starter' });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('write to help@lookup.example to buy them');
  });
});
