import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '../support/api.ts';
import { createFixtureApi } from '../support/fixture.ts';

/**
 * Hostile input on every parameter of every operation (docs/product-rules.md §3 and §9): each answer is a clear
 * 400 or 404 (a 200 where the input still names something that exists), never a 5xx, and it costs
 * nothing unless it was a valid, charged lookup. Every response is also validated against
 * openapi.yaml by the test API.
 *
 * Each row is a query value, as sent on the wire, and what it must give as a `name` and as a
 * `domain`: an error code (free) or `charged` (the lookup ran: 200 or 404 at the operation's price).
 */
type Outcome = 'charged' | 'missing_name' | 'invalid_name' | 'missing_domain' | 'invalid_domain';
interface Row {
  what: string;
  /** The value as it appears in the query string (already percent-encoded where it must be). */
  wire: string;
  name: Outcome;
  domain: Outcome;
}

const e = encodeURIComponent;
const ROWS: Row[] = [
  // SQL injection: parameters are bound, never spliced into SQL; a name is just a name nobody has.
  { what: "SQL: ' OR '1'='1", wire: e("' OR '1'='1"), name: 'charged', domain: 'invalid_domain' },
  { what: 'SQL: DROP TABLE', wire: e("x'; DROP TABLE accounts; --"), name: 'charged', domain: 'invalid_domain' },
  {
    what: 'SQL: UNION SELECT',
    wire: e("x' UNION SELECT key_hash FROM api_keys --"),
    name: 'charged',
    domain: 'invalid_domain',
  },
  { what: 'SQL: LIKE wildcards', wire: e("%' OR name LIKE '%"), name: 'charged', domain: 'invalid_domain' },
  {
    what: 'SQL: stacked query with pg_sleep',
    wire: e('1; SELECT pg_sleep(10)'),
    name: 'charged',
    domain: 'invalid_domain',
  },
  { what: 'SQL: placeholder and backslash', wire: e('$1 \\ \\x27'), name: 'charged', domain: 'invalid_domain' },
  {
    what: 'SQL after a real domain: the path is dropped, the domain is looked up',
    wire: e("acme-outdoor.com/';DROP TABLE crawls;--"),
    name: 'charged',
    domain: 'charged',
  },
  {
    what: 'shell and template syntax',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: template syntax sent as data, on purpose
    wire: e('$(reboot) `id` {{7*7}} ${7*7}'),
    name: 'charged',
    domain: 'invalid_domain',
  },
  // Header injection through a parameter: the value only ever appears JSON-escaped in a body.
  { what: 'CR LF + Set-Cookie', wire: e('Acme\r\nSet-Cookie: stolen=1'), name: 'charged', domain: 'invalid_domain' },
  { what: 'CR LF in a domain', wire: e('example.com\r\nX-Injected: 1'), name: 'charged', domain: 'invalid_domain' },
  // NUL: valid UTF-8; a name with it names nobody, a host with it is illegal.
  { what: 'NUL at the end', wire: 'Acme%00', name: 'charged', domain: 'invalid_domain' },
  { what: 'NUL inside a host', wire: 'example.com%00.evil.com', name: 'charged', domain: 'invalid_domain' },
  // Not UTF-8, or not percent-encoding at all: refused before anything runs.
  { what: 'invalid UTF-8 byte', wire: '%FF%FE', name: 'invalid_name', domain: 'invalid_domain' },
  { what: 'Latin-1 instead of UTF-8', wire: 'b%FCcher.de', name: 'invalid_name', domain: 'invalid_domain' },
  { what: 'encoded surrogate', wire: '%ED%A0%BD%ED%B8%80', name: 'invalid_name', domain: 'invalid_domain' },
  { what: 'over-long "/"', wire: '%C0%AF', name: 'invalid_name', domain: 'invalid_domain' },
  { what: 'a lone "%"', wire: '50%', name: 'invalid_name', domain: 'invalid_domain' },
  { what: '"%" with non-hex digits', wire: '%G1', name: 'invalid_name', domain: 'invalid_domain' },
  // Oversized: a 10 kB value, plain or percent-encoded.
  { what: '10 kB of ASCII', wire: 'A'.repeat(10_240), name: 'invalid_name', domain: 'invalid_domain' },
  {
    what: '10 kB of percent-encoded UTF-8',
    wire: '%E2%82%AC'.repeat(3_414),
    name: 'invalid_name',
    domain: 'invalid_domain',
  },
  {
    what: '10 kB host in a valid URL shape',
    wire: `${'a'.repeat(10_240)}.com`,
    name: 'invalid_name',
    domain: 'invalid_domain',
  },
  // Odd Unicode: valid text, so a name is looked up as given; a host is normalized or refused.
  { what: 'right-to-left override', wire: e('\u202Eexample.com'), name: 'charged', domain: 'invalid_domain' },
  { what: 'zero-width joiner emoji', wire: e('👩‍💻.com'), name: 'charged', domain: 'invalid_domain' },
  { what: 'combining accent', wire: e('A\u0301cme'), name: 'charged', domain: 'invalid_domain' },
  { what: 'fullwidth letters (UTS #46 maps them)', wire: e('ｅｘａｍｐｌｅ.com'), name: 'charged', domain: 'charged' },
  { what: 'noncharacter U+FFFF and private use', wire: e('\uFFFF\uE000'), name: 'charged', domain: 'invalid_domain' },
  { what: 'astral letters', wire: e('𝔄𝔠𝔪𝔢'), name: 'charged', domain: 'invalid_domain' },
  { what: 'ideographic space only', wire: e('\u3000\u3000'), name: 'missing_name', domain: 'missing_domain' },
  { what: 'byte order mark only', wire: e('\uFEFF'), name: 'missing_name', domain: 'missing_domain' },
];

const NAME_OPERATIONS = [
  { path: '/api/v1/advertiser', price: 3 },
  { path: '/api/v1/advertiser/history', price: 9 },
  { path: '/api/v1/advertiser/domains', price: 15 },
];
const DOMAIN_OPERATIONS = [
  { path: '/api/v1/domain', price: 3 },
  { path: '/api/v1/brandbid', price: 60 },
];

describe('hostile input on every parameter of every operation', () => {
  let api: TestApi;
  let key: string;
  let accountId: number;
  beforeAll(async () => {
    ({ api } = await createFixtureApi());
    ({ key, accountId } = await api.newKey(100_000));
  });
  afterAll(async () => {
    await api.close();
  });

  /** Sends the request and checks the outcome, the charge and the response headers. */
  async function expectOutcome(path: string, price: number, expected: Outcome, what: string) {
    const before = await api.balanceOf(accountId);
    const response = await api.request(path, { key });
    const where = `${what}: GET ${path.slice(0, 120)}`;
    expect(response.status, where).toBeLessThan(500);
    if (expected === 'charged') {
      expect([200, 404], where).toContain(response.status);
      expect(response.body.credits_charged, where).toBe(price);
      expect(await api.balanceOf(accountId), where).toBe(before - price);
    } else {
      expect(response.status, where).toBe(400);
      expect(response.body, where).toEqual({ error: expected, message: expect.any(String) });
      expect(response.headers.get('x-credits-charged'), where).toBe('0');
      expect(await api.balanceOf(accountId), where).toBe(before);
    }
    for (const name of response.headers.keys()) expect(name, where).not.toMatch(/set-cookie|x-injected/i);
  }

  for (const row of ROWS) {
    it(`${row.what}: name → ${row.name}, domain → ${row.domain}`, async () => {
      for (const { path, price } of NAME_OPERATIONS)
        await expectOutcome(`${path}?name=${row.wire}`, price, row.name, row.what);
      for (const { path, price } of DOMAIN_OPERATIONS)
        await expectOutcome(`${path}?domain=${row.wire}`, price, row.domain, row.what);
      // The account operation takes no parameters: any of these is an unknown parameter, ignored, free.
      const account = await api.request(`/api/v1/account?q=${row.wire}`, { key });
      expect(account.status, row.what).toBe(200);
      const asName = await api.request(`/api/v1/account?${row.wire}=x`, { key });
      expect(asName.status, row.what).toBe(200);
      expect(account.headers.get('x-credits-charged')).toBe('0');
    });
  }

  it('every parameter given twice, whatever the values: invalid_*, free', async () => {
    for (const { path, price } of NAME_OPERATIONS) {
      await expectOutcome(
        `${path}?name=Acme%20Outdoor%20GmbH&name=Acme%20Outdoor%20GmbH`,
        price,
        'invalid_name',
        'repeated',
      );
      await expectOutcome(`${path}?name=x&name=%FF`, price, 'invalid_name', 'repeated, one malformed');
      await expectOutcome(`${path}?name=x&name=`, price, 'invalid_name', 'repeated, one empty');
    }
    for (const { path, price } of DOMAIN_OPERATIONS) {
      await expectOutcome(
        `${path}?domain=acme-outdoor.com&domain=acme-outdoor.com`,
        price,
        'invalid_domain',
        'repeated',
      );
      await expectOutcome(
        `${path}?domain=acme-outdoor.com&domain=${'a'.repeat(10_240)}`,
        price,
        'invalid_domain',
        'repeated, one huge',
      );
    }
  });

  it('hostile key headers on every operation: 401, free, never a 500', async () => {
    const operations = [
      ...NAME_OPERATIONS.map((op) => `${op.path}?name=Nobody`),
      ...DOMAIN_OPERATIONS.map((op) => `${op.path}?domain=acme-outdoor.com`),
      '/api/v1/account',
    ];
    const headers: Record<string, string>[] = [
      { 'x-api-key': "' OR '1'='1" },
      { 'x-api-key': "alk_'; DROP TABLE api_keys; --" },
      { Authorization: "Bearer ' OR 1=1 --" },
      { Authorization: `Bearer ${'a'.repeat(10_240)}` },
      { 'x-api-key': `alk_${'A'.repeat(10_240)}` },
      { 'x-api-key': 'alk_ÿÿÿÿ' },
      { Authorization: 'Bearer alk_\u00a0' },
      { Authorization: 'Basic YWxhZGRpbjpvcGVuc2VzYW1l' },
    ];
    const before = await api.balanceOf(accountId);
    for (const path of operations) {
      for (const header of headers) {
        const response = await api.request(path, { headers: header });
        expect(response.status, `${path} ${JSON.stringify(header).slice(0, 80)}`).toBe(401);
        expect(response.headers.get('x-credits-charged')).toBeNull();
      }
    }
    expect(await api.balanceOf(accountId)).toBe(before);
  });

  it('afterwards: the data and the keys are intact, and every balance still equals its ledger', async () => {
    const response = await api.request('/api/v1/advertiser?name=Acme%20Outdoor%20GmbH', { key });
    expect(response.status).toBe(200);
    expect(response.body.advertiser_ids).toEqual(['AR100', 'AR200']);
    expect((await api.request('/api/v1/brandbid?domain=acme-outdoor.com', { key })).body.advertiser_count).toBe(3);
    const [{ keys }] = await api.db.sql<
      { keys: number }[]
    >`SELECT count(*)::integer AS keys FROM api_keys WHERE revoked_at IS NULL`;
    expect(keys).toBeGreaterThanOrEqual(2);
    const mismatched = await api.db.sql`
      SELECT a.id FROM accounts a LEFT JOIN ledger l ON l.account_id = a.id
      GROUP BY a.id, a.balance HAVING a.balance <> coalesce(sum(l.amount), 0)`;
    expect(mismatched).toEqual([]);
  });
});
