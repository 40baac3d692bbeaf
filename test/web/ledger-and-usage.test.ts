import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractOperations } from '../../src/contract/operations.ts';
import { addCredits } from '../../src/data/accounts.ts';
import { csvField } from '../../src/http/csv.ts';
import { LEDGER_PAGE_ROWS } from '../../src/web/ledger.tsx';
import { type AccountPageHarness, createKeyOnPage, startAccountPage } from '../support/account-page.ts';
import { loadFixture } from '../support/fixture.ts';
import type { WebClient } from '../support/web.ts';

describe('the ledger and usage pages', () => {
  let page: AccountPageHarness;
  beforeAll(async () => {
    page = await startAccountPage();
    await loadFixture(page.db.sql);
  });
  afterAll(() => page?.close());

  async function keyFor(browser: WebClient): Promise<{ key: string; accountId: number }> {
    const { key } = await createKeyOnPage(browser, { name: 'calls' });
    const [{ account_id }] = await page.db.sql<{ account_id: number }[]>`
      SELECT account_id FROM api_keys WHERE display_prefix = ${key.slice(0, 12)}`;
    return { key, accountId: account_id };
  }

  async function call(key: string, path: string, headers: Record<string, string> = {}) {
    const response = await page.app.request(path, { headers: { Authorization: `Bearer ${key}`, ...headers } });
    expect(response.status).toBeLessThan(500);
    return response;
  }

  it('the ledger pages walk every entry once, newest first', async () => {
    const browser = await page.signedIn('pages@example.com');
    const { key, accountId } = await keyFor(browser);
    await addCredits(page.db.sql, accountId, 1_000, 'pages-purchase');
    for (let i = 0; i < 2 * LEDGER_PAGE_ROWS + 5; i++) await call(key, '/api/v1/advertiser?name=Acme%20Outdoor%20GmbH');
    const ids: number[] = [];
    let next: string | null = '/account/ledger';
    let pages = 0;
    while (next) {
      const shown = await browser.get(next);
      expect(shown.status).toBe(200);
      pages++;
      const rows = [...shown.text.matchAll(/<td data-label="Balance" class="number">([\d,]+)<\/td>/g)];
      expect(rows.length).toBeLessThanOrEqual(LEDGER_PAGE_ROWS);
      const older = /href="(\/account\/ledger\?before=\d+)"/.exec(shown.text)?.[1] ?? null;
      ids.push(...rows.map((row) => Number(row[1].replace(/,/g, ''))));
      next = older;
    }
    const [{ entries }] = await page.db.sql<{ entries: number }[]>`
      SELECT count(*)::int AS entries FROM ledger WHERE account_id = ${accountId}`;
    expect(pages).toBe(3);
    expect(ids.length).toBe(entries);
    // Balances after each entry, newest first: each older one is 3 more (a charge) until the purchase and the grant.
    expect(ids[0]).toBe(200 + 1_000 - 3 * (2 * LEDGER_PAGE_ROWS + 5));
    expect(
      ids.slice(0, 2 * LEDGER_PAGE_ROWS + 5).every((balance, i, all) => i === 0 || balance === all[i - 1] + 3),
    ).toBe(true);
  });

  it('the ledger filters by key, kind and UTC days, pages back and forth, and its CSV covers the filter', async () => {
    const browser = await page.signedIn('filters@example.com');
    const { key: alpha, accountId } = await keyFor(browser);
    const { key: beta } = await createKeyOnPage(browser, { name: 'beta' });
    const idOf = async (key: string) =>
      (await page.db.sql<{ id: number }[]>`SELECT id FROM api_keys WHERE display_prefix = ${key.slice(0, 12)}`)[0].id;
    const [alphaId, betaId] = [await idOf(alpha), await idOf(beta)];
    for (let i = 0; i < 3; i++) await call(alpha, '/api/v1/advertiser?name=Acme%20Outdoor%20GmbH');
    for (let i = 0; i < 2; i++) await call(beta, '/api/v1/domain?domain=acme-outdoor.com');
    for (let i = 0; i < LEDGER_PAGE_ROWS + 10; i++) await addCredits(page.db.sql, accountId, 5, `filters-${i}`);
    // One charge of alpha's on an earlier day.
    await page.db.sql`
      UPDATE ledger SET created_at = '2026-11-01T10:00:00Z'
      WHERE id = (SELECT min(id) FROM ledger WHERE key_id = ${alphaId} AND kind = 'charge')`;
    const entries = (shown: { text: string }) =>
      [...shown.text.matchAll(/<td data-label="Kind">(\w+)<\/td>/g)].map((match) => match[1]);

    const alphaOnly = await browser.get(`/account/ledger?key=${alphaId}`);
    expect(entries(alphaOnly)).toEqual(['charge', 'charge', 'charge', 'grant']);
    expect(alphaOnly.text).toContain(`<option value="${alphaId}" selected="">`);
    expect(entries(await browser.get(`/account/ledger?key=${betaId}&kind=charge`))).toEqual(['charge', 'charge']);
    expect(entries(await browser.get('/account/ledger?from=2026-11-01&to=2026-11-01'))).toEqual(['charge']);
    expect(entries(await browser.get('/account/ledger?kind=refund'))).toEqual([]);

    // Purchases only: two pages, and the second leads back to the first.
    const first = await browser.get('/account/ledger?kind=purchase');
    expect(entries(first)).toEqual(Array(LEDGER_PAGE_ROWS).fill('purchase'));
    expect(first.text).not.toContain('Newer entries');
    const older = /href="(\/account\/ledger\?kind=purchase&amp;before=\d+)"/.exec(first.text)![1];
    const second = await browser.get(older.replaceAll('&amp;', '&'));
    expect(entries(second)).toEqual(Array(10).fill('purchase'));
    expect(second.text).not.toContain('Older entries');
    const newer = /href="(\/account\/ledger\?kind=purchase&amp;after=\d+)" rel="prev"/.exec(second.text)![1];
    const back = await browser.get(newer.replaceAll('&amp;', '&'));
    expect(back.text.match(/<tbody>.*<\/tbody>/s)![0]).toBe(first.text.match(/<tbody>.*<\/tbody>/s)![0]);
    expect(back.text).not.toContain('rel="prev"');

    // The CSV: the filtered entries, every page of them, named by the account and the range.
    expect(first.text).toContain('href="/account/ledger.csv?kind=purchase"');
    const purchases = await browser.get('/account/ledger.csv?kind=purchase');
    expect(parse(purchases.text, { columns: true })).toHaveLength(LEDGER_PAGE_ROWS + 10);
    const today = new Date().toISOString().slice(0, 10);
    expect(purchases.headers.get('content-disposition')).toBe(
      `attachment; filename="ledger-account-${accountId}-purchase-start-to-${today}.csv"`,
    );
    const day = await browser.get(`/account/ledger.csv?key=${alphaId}&from=2026-11-01&to=2026-11-01`);
    expect(day.headers.get('content-disposition')).toBe(
      `attachment; filename="ledger-account-${accountId}-key-${alphaId}-2026-11-01-to-2026-11-01.csv"`,
    );
    const records = parse(day.text, { columns: true }) as Record<string, string>[];
    expect(records.map((r) => [r.kind, r.key_prefix])).toEqual([['charge', alpha.slice(0, 12)]]);
  });

  it('the CSV holds every entry, parses as RFC 4180, and its amounts sum to the balance', async () => {
    const browser = await page.signedIn('csv@example.com');
    const { key, accountId } = await keyFor(browser);
    await call(key, '/api/v1/advertiser?name=Acme%20Outdoor%20GmbH', { 'X-Request-Id': '-2-3-formula' });
    await call(key, '/api/v1/domain?domain=acme-outdoor.com');
    await call(key, '/api/v1/advertiser?name=Nobody%20at%20all');
    const csv = await browser.get('/account/ledger.csv');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    expect(csv.headers.get('content-disposition')).toBe(
      `attachment; filename="ledger-account-${accountId}-start-to-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    expect(csv.text.endsWith('\r\n')).toBe(true);
    const records = parse(csv.text, { columns: true }) as Record<string, string>[];
    expect(records.map((r) => r.kind)).toEqual(['charge', 'charge', 'charge', 'grant']);
    const [{ balance }] = await page.db.sql<
      { balance: number }[]
    >`SELECT balance FROM accounts WHERE id = ${accountId}`;
    expect(records.reduce((sum, r) => sum + Number(r.amount), 0)).toBe(balance);
    expect(records[3].balance_after).toBe('200');
    // The caller's own request id, which a spreadsheet would run as a formula, is kept as text.
    expect(records[2].request_id).toBe("'-2-3-formula");
  });

  it('a CSV text field is quoted when it holds a comma, a quote or a line break, and never starts a formula', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    for (const risky of ['=1+1', '+1', '-1', '@SUM(A1)', '\tx']) expect(csvField(risky)).toBe(`'${risky}`);
    expect(csvField('\rx')).toBe(`"'\rx"`);
    // Numbers stay numbers: a refund's or a charge's amount is no formula.
    expect([csvField(-5), csvField(12)]).toEqual(['-5', '12']);
    expect(csvField(null)).toBe('');
  });

  it('the overview shows the balance and the billed calls and credits of the period, per operation', async () => {
    const browser = await page.signedIn('usage@example.com');
    const { key } = await keyFor(browser);
    await call(key, '/api/v1/advertiser?name=Acme%20Outdoor%20GmbH');
    await call(key, '/api/v1/advertiser?name=Acme%20Outdoor%20GmbH');
    await call(key, '/api/v1/domain?domain=acme-outdoor.com');
    await call(key, '/api/v1/account');
    const overview = await browser.get('/account');
    expect(overview.text).toMatch(/data-testid="balance">\s*191\s*</);
    expect(overview.text).toMatch(/data-testid="period-credits">\s*9\s*</);
    expect(overview.text).toContain('credits spent on 3 billed calls');
    const data = JSON.parse(
      /<script type="application\/json" id="usage-data">(.*?)<\/script>/s.exec(overview.text)![1],
    );
    expect(data.days).toHaveLength(30);
    expect(data.credits.reduce((a: number, b: number) => a + b, 0)).toBe(9);
    expect(data.operations).toEqual([
      { operation: 'getAdvertiserSummary', calls: 2, refundedCalls: 0, credits: 6 },
      { operation: 'getDomainSummary', calls: 1, refundedCalls: 0, credits: 3 },
    ]);
    const ninety = await browser.get('/account?days=90');
    expect(JSON.parse(/id="usage-data">(.*?)<\/script>/s.exec(ninety.text)![1]).days).toHaveLength(90);
  });

  it('usage and ledger name operations as the contract does, with each price, and the key by its name', async () => {
    const browser = await page.signedIn('names@example.com');
    const { key } = await keyFor(browser);
    await call(key, '/api/v1/brandbid?domain=acme-outdoor.com');
    const overview = await browser.get('/account');
    const operations = /data-testid="usage-operations"(.*?)<\/table>/s.exec(overview.text)![1];
    const rows = [...operations.matchAll(/<tr>(.*?)<\/tr>/gs)]
      .slice(1)
      .map((row) => [...row[1].matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((cell) => cell[1].replace(/<[^>]+>/g, '')));
    // Every billed operation of the contract, with its x-credit-cost and its summary; the used one first.
    const billed = contractOperations.filter((op) => op.creditCost > 0);
    // And the billed webhook: a brand watch delivery with news (docs/product-rules.md R19.22).
    expect(rows).toHaveLength(billed.length + 1);
    expect(rows).toContainEqual(expect.arrayContaining(['Brand watch news', '5 credits']));
    const brandBid = billed.find((op) => op.operationId === 'getBrandBidReport')!;
    expect(brandBid.summary).toBe('Brand-bid report');
    expect(rows[0]).toEqual([
      'Brand-bid report',
      `${brandBid.creditCost} credits`,
      '1',
      '0',
      String(brandBid.creditCost),
    ]);
    for (const op of billed)
      expect(rows).toContainEqual(
        expect.arrayContaining([op.summary, `${op.creditCost} credit${op.creditCost === 1 ? '' : 's'}`]),
      );
    expect(operations).not.toContain('getBrandBidReport');

    const ledger = await browser.get('/account/ledger');
    expect(ledger.text).toContain('<td data-label="Operation">Brand-bid report</td>');
    expect(ledger.text).not.toContain('getBrandBidReport');
    expect(ledger.text).toContain(`<span class="key-name">calls </span><code>${key.slice(0, 12)}…</code>`);
  });

  it(
    'a new account’s overview says what to do first instead of an empty chart; a key selector shows one ' + 'key',
    async () => {
      const browser = await page.signedIn('first-steps@example.com');
      const empty = await browser.get('/account');
      expect(empty.text).toContain('data-testid="usage-empty"');
      expect(empty.text).toContain('<a href="/account/keys">Create an API key</a>');
      expect(empty.text).toContain('Test key');
      expect(empty.text).toContain('/api/v1/advertiser?name=Acme%20Outdoor');
      expect(empty.text).not.toContain('id="usage-chart"');

      const { key: alpha } = await keyFor(browser);
      const { key: beta } = await createKeyOnPage(browser, { name: 'beta' });
      const idOf = async (key: string) =>
        (await page.db.sql<{ id: number }[]>`SELECT id FROM api_keys WHERE display_prefix = ${key.slice(0, 12)}`)[0].id;
      const [alphaId, betaId] = [await idOf(alpha), await idOf(beta)];
      expect((await browser.get('/account')).text).toContain('You have 2 keys');
      await call(alpha, '/api/v1/advertiser?name=Acme%20Outdoor%20GmbH');
      await call(alpha, '/api/v1/advertiser?name=Acme%20Outdoor%20GmbH');
      await call(beta, '/api/v1/domain?domain=acme-outdoor.com');
      const credits = (shown: { text: string }) => /data-testid="period-credits">\s*([\d,]+)\s*</.exec(shown.text)![1];
      const all = await browser.get('/account');
      expect(all.text).toContain('id="usage-chart"');
      expect(all.text).not.toContain('data-testid="usage-empty"');
      expect(credits(all)).toBe('9');
      const one = await browser.get(`/account?days=90&key=${alphaId}`);
      expect(credits(one)).toBe('6');
      expect(one.text).toContain(`<option value="${alphaId}" selected="">`);
      expect(one.text).toContain(`href="/account?days=30&amp;key=${alphaId}"`);
      expect(credits(await browser.get(`/account?key=${betaId}`))).toBe('3');
      // Another account's key is no key of this overview: every key's usage is shown.
      const stranger = await page.signedIn('stranger-keys@example.com');
      expect(credits(await stranger.get(`/account?key=${alphaId}`))).toBe('0');
    },
  );

  it('the usage data block cannot end its script element', async () => {
    const browser = await page.signedIn('script@example.com');
    const overview = await browser.get('/account');
    const block = /id="usage-data">(.*?)<\/script>/s.exec(overview.text)![1];
    expect(block).not.toContain('<');
  });
});
