import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/data/client.ts';
import {
  getAdvertiserHistory,
  getAdvertiserLandingDomains,
  getAdvertiserSummary,
  getBrandBidReport,
  getDomainSummary,
} from '../../src/data/lookups.ts';
import { checkAggregates, ingestCrawls, ingestLabels, ingestObservations } from '../../src/ingest/index.ts';
import { resetData } from '../ingest/helpers.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

/**
 * The five lookups on hand-made data, one describe per value and rule of docs/product-rules.md §2
 * (on the data model of §1), chosen so that the naive computation (counting observations, summing over identifiers,
 * collating by locale) would give another answer.
 */

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});
beforeEach(async () => {
  await resetData(db.sql);
});

/** One observation: identifier, its name, creative, day, landing URL and country. */
function o(advertiserId: string, name: string, creativeId: string, seenOn: string, landingUrl: string, country = 'US') {
  return {
    advertiser_id: advertiserId,
    advertiser_name: name,
    creative_id: creativeId,
    seen_on: seenOn,
    landing_url: landingUrl,
    country,
  };
}

async function load(observations: Record<string, unknown>[]) {
  const summary = await ingestObservations(db.sql, observations, { today: new Date('2030-01-01T00:00:00Z') });
  expect(summary.rejects).toEqual([]);
  expect(await checkAggregates(db.sql)).toEqual([]);
}

describe('advertiser summary', () => {
  it('returns the documented fields in the order of the field table', async () => {
    await load([o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.com')]);
    const summary = await getAdvertiserSummary(db.sql, 'Acme');
    expect(Object.keys(summary!)).toEqual([
      'advertiser',
      'advertiser_ids',
      'creatives',
      'landing_domains',
      'last_seen',
      'country',
      'advertiser_type',
    ]);
    expect(summary).toEqual({
      advertiser: 'Acme',
      advertiser_ids: ['AR1'],
      creatives: 1,
      landing_domains: 1,
      last_seen: '2024-01-01',
      country: 'US',
      advertiser_type: null,
    });
  });

  it('advertiser (by name): all identifiers whose current name equals the name, byte for byte', async () => {
    await load([
      o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.com'),
      o('AR2', 'Acme', 'C2', '2024-01-01', 'acme.com'),
      o('AR3', 'acme', 'C3', '2024-01-01', 'acme.com'),
      o('AR4', 'Acme ', 'C4', '2024-01-01', 'acme.com'),
      o('AR5', 'Acm\u00e9', 'C5', '2024-01-01', 'acme.com'),
      o('AR6', 'Acme\u0301', 'C6', '2024-01-01', 'acme.com'),
    ]);
    expect((await getAdvertiserSummary(db.sql, 'Acme'))!.advertiser_ids).toEqual(['AR1', 'AR2']);
    expect((await getAdvertiserSummary(db.sql, 'acme'))!.advertiser_ids).toEqual(['AR3']);
    expect((await getAdvertiserSummary(db.sql, 'Acme '))!.advertiser_ids).toEqual(['AR4']);
    expect((await getAdvertiserSummary(db.sql, 'Acm\u00e9'))!.advertiser_ids).toEqual(['AR5']);
    expect(await getAdvertiserSummary(db.sql, 'ACME')).toBeNull();
  });

  it('advertiser_ids are listed ascending by code point (AR10 < AR100 < AR9)', async () => {
    await load(['AR9', 'AR100', 'AR10', 'AR0'].map((id) => o(id, 'Acme', `C-${id}`, '2024-01-01', 'acme.com')));
    expect((await getAdvertiserSummary(db.sql, 'Acme'))!.advertiser_ids).toEqual(['AR0', 'AR10', 'AR100', 'AR9']);
  });

  it('rename: an identifier whose latest observation carries another name leaves the old name', async () => {
    await load([
      o('AR1', 'Old Name', 'C1', '2024-01-10', 'old.com'),
      o('AR1', 'New Name', 'C2', '2024-02-10', 'new.com'),
      o('AR2', 'Old Name', 'C3', '2024-01-05', 'other.com'),
    ]);
    const renamed = await getAdvertiserSummary(db.sql, 'New Name');
    // All of AR1's data follows its current name, including what it did under the old one.
    expect(renamed).toMatchObject({
      advertiser_ids: ['AR1'],
      creatives: 2,
      landing_domains: 2,
      last_seen: '2024-02-10',
    });
    expect(await getAdvertiserSummary(db.sql, 'Old Name')).toMatchObject({ advertiser_ids: ['AR2'], creatives: 1 });
    await load([o('AR2', 'Third Name', 'C3', '2024-01-06', 'other.com')]);
    expect(await getAdvertiserSummary(db.sql, 'Old Name')).toBeNull();
  });

  it('creatives: distinct creative ids over all identifiers, not observations', async () => {
    await load([
      // C1 on two domains and two days: four observations, one creative.
      o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.com'),
      o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.de'),
      o('AR1', 'Acme', 'C1', '2024-01-02', 'acme.com'),
      o('AR1', 'Acme', 'C1', '2024-01-02', 'acme.de'),
      o('AR2', 'Acme', 'C2', '2024-01-01', 'acme.com'),
    ]);
    expect((await getAdvertiserSummary(db.sql, 'Acme'))!.creatives).toBe(2);
  });

  it('landing_domains: distinct root domains over all identifiers, not their sum', async () => {
    await load([
      o('AR1', 'Acme', 'C1', '2024-01-01', 'https://www.acme.com/a'),
      o('AR1', 'Acme', 'C2', '2024-01-01', 'https://shop.acme.com/b'), // same root domain
      o('AR1', 'Acme', 'C2', '2024-01-01', 'acme.de'),
      o('AR2', 'Acme', 'C3', '2024-01-01', 'acme.com'), // shared with AR1
      o('AR2', 'Acme', 'C3', '2024-01-01', 'acme.fr'),
    ]);
    // AR1 has 2, AR2 has 2; together acme.com, acme.de, acme.fr.
    expect((await getAdvertiserSummary(db.sql, 'Acme'))!.landing_domains).toBe(3);
  });

  it('last_seen: latest seen_on over all identifiers', async () => {
    await load([
      o('AR1', 'Acme', 'C1', '2024-03-31', 'acme.com'),
      o('AR2', 'Acme', 'C2', '2023-12-31', 'acme.com'),
      o('AR3', 'Other', 'C3', '2025-01-01', 'acme.com'),
    ]);
    expect((await getAdvertiserSummary(db.sql, 'Acme'))!.last_seen).toBe('2024-03-31');
  });

  describe(
    'country: of the identifier with the most creatives; ' + 'ties: latest last_seen, then smallest identifier',
    () => {
      it('the identifier with the most creatives wins, even when another has more observations', async () => {
        await load([
          o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.com', 'DE'),
          o('AR1', 'Acme', 'C2', '2024-01-01', 'acme.com', 'DE'),
          o('AR2', 'Acme', 'C3', '2024-01-01', 'acme.com', 'FR'),
          o('AR2', 'Acme', 'C3', '2024-01-02', 'acme.com', 'FR'),
          o('AR2', 'Acme', 'C3', '2024-01-03', 'acme.com', 'FR'),
        ]);
        expect((await getAdvertiserSummary(db.sql, 'Acme'))!.country).toBe('DE');
      });

      it('tie on creatives: the later last_seen wins', async () => {
        await load([
          o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.com', 'DE'),
          o('AR2', 'Acme', 'C2', '2024-01-05', 'acme.com', 'FR'),
          o('AR3', 'Acme', 'C3', '2024-01-03', 'acme.com', 'GB'),
        ]);
        expect((await getAdvertiserSummary(db.sql, 'Acme'))!.country).toBe('FR');
      });

      it('tie on creatives and last_seen: the smallest identifier by code point wins (AR10 < AR9)', async () => {
        await load([
          o('AR9', 'Acme', 'C1', '2024-01-05', 'acme.com', 'DE'),
          o('AR10', 'Acme', 'C2', '2024-01-05', 'acme.com', 'FR'),
        ]);
        expect((await getAdvertiserSummary(db.sql, 'Acme'))!.country).toBe('FR');
      });

      it("an identifier's country is that of its most recent observation", async () => {
        await load([
          o('AR1', 'Acme', 'C1', '2024-01-05', 'acme.com', 'DE'),
          o('AR1', 'Acme', 'C2', '2024-01-01', 'acme.com', 'FR'),
        ]);
        expect((await getAdvertiserSummary(db.sql, 'Acme'))!.country).toBe('DE');
      });
    },
  );

  it('advertiser_type: the label of the name, or null when nobody labelled it', async () => {
    await load([
      o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.com'),
      o('AR2', 'Northwind', 'C2', '2024-01-01', 'northwind.com'),
      o('AR3', 'Globex', 'C3', '2024-01-01', 'globex.com'),
    ]);
    await ingestLabels(db.sql, [
      { advertiser_name: 'Acme', advertiser_type: 'direct' },
      { advertiser_name: 'Northwind', advertiser_type: 'agency' },
      { advertiser_name: 'globex', advertiser_type: 'agency' },
    ]);
    expect((await getAdvertiserSummary(db.sql, 'Acme'))!.advertiser_type).toBe('direct');
    expect((await getAdvertiserSummary(db.sql, 'Northwind'))!.advertiser_type).toBe('agency');
    expect((await getAdvertiserSummary(db.sql, 'Globex'))!.advertiser_type).toBeNull();
  });

  it('404: no identifier currently has the name (a label alone is not an advertiser)', async () => {
    await load([o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.com')]);
    await ingestLabels(db.sql, [{ advertiser_name: 'Ghost', advertiser_type: 'direct' }]);
    expect(await getAdvertiserSummary(db.sql, 'Ghost')).toBeNull();
    expect(await getAdvertiserSummary(db.sql, 'Nobody')).toBeNull();
    // Names ingest can never store answer 404 rather than an error or a wrong match.
    expect(await getAdvertiserSummary(db.sql, 'Acme\u0000')).toBeNull();
    expect(await getAdvertiserSummary(db.sql, '\uD800')).toBeNull();
  });
});

describe('domain summary', () => {
  it('returns the documented fields in the order of the field table', async () => {
    await load([o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.com')]);
    const summary = await getDomainSummary(db.sql, 'acme.com');
    expect(Object.keys(summary!)).toEqual(['domain', 'advertisers', 'last_crawled', 'has_data']);
    expect(summary).toEqual({ domain: 'acme.com', advertisers: 1, last_crawled: null, has_data: true });
  });

  it('advertisers: distinct advertiser identifiers landing on the domain (not names, not creatives)', async () => {
    await load([
      o('AR1', 'Acme', 'C1', '2024-01-01', 'https://www.acme.com/'),
      o('AR1', 'Acme', 'C2', '2024-01-02', 'https://shop.acme.com/'),
      o('AR2', 'Acme', 'C3', '2024-01-01', 'acme.com'), // same name, second identifier
      o('AR3', 'Reseller', 'C4', '2024-01-01', 'acme.com'),
      o('AR4', 'Elsewhere', 'C5', '2024-01-01', 'elsewhere.com'),
    ]);
    expect((await getDomainSummary(db.sql, 'acme.com'))!.advertisers).toBe(3);
  });

  it('last_crawled: latest crawled_at, YYYY-MM-DD HH:MM:SS in UTC; null when never crawled', async () => {
    await load([o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.com'), o('AR2', 'B', 'C2', '2024-01-01', 'b.com')]);
    await ingestCrawls(db.sql, [
      { domain: 'acme.com', crawled_at: '2024-02-01T23:30:05+0530' },
      { domain: 'https://www.acme.com/', crawled_at: '2024-01-15 10:00:00' },
    ]);
    expect((await getDomainSummary(db.sql, 'acme.com'))!.last_crawled).toBe('2024-02-01 18:00:05');
    expect((await getDomainSummary(db.sql, 'b.com'))!.last_crawled).toBeNull();
  });

  it('has_data false, advertisers 0: a domain crawled but without observations exists', async () => {
    await ingestCrawls(db.sql, [{ domain: 'quiet-harbor.co.uk', crawled_at: '2024-02-01 12:00:00' }]);
    expect(await getDomainSummary(db.sql, 'quiet-harbor.co.uk')).toEqual({
      domain: 'quiet-harbor.co.uk',
      advertisers: 0,
      last_crawled: '2024-02-01 12:00:00',
      has_data: false,
    });
  });

  it('404: neither an observation nor a crawl', async () => {
    await load([o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.com')]);
    expect(await getDomainSummary(db.sql, 'unknown.com')).toBeNull();
    expect(await getDomainSummary(db.sql, 'acme.de')).toBeNull();
  });
});

describe('advertiser history', () => {
  const NOW = new Date('2024-06-15T12:00:00Z');
  const monthsFrom = (start: string, count: number) =>
    Array.from({ length: count }, (_, i) => {
      const month = Number(start.slice(0, 4)) * 12 + Number(start.slice(5, 7)) - 1 + i;
      return `${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}`;
    });

  it('returns the documented fields in the order of the field table', async () => {
    await load([o('AR1', 'Acme', 'C1', '2024-06-01', 'acme.com')]);
    const history = await getAdvertiserHistory(db.sql, 'Acme', NOW);
    expect(Object.keys(history!)).toEqual(['advertiser', 'window_start', 'months']);
    expect(Object.keys(history!.months[0])).toEqual(['month', 'creatives', 'domains']);
  });

  it(
    'months: ascending, one per calendar month up to the ' + 'current UTC month, months without activity as zeros',
    async () => {
      await load([o('AR1', 'Acme', 'C1', '2024-02-29', 'acme.com'), o('AR1', 'Acme', 'C2', '2024-05-01', 'acme.com')]);
      const history = await getAdvertiserHistory(db.sql, 'Acme', NOW);
      expect(history).toEqual({
        advertiser: 'Acme',
        window_start: '2024-02-01',
        months: [
          { month: '2024-02', creatives: 1, domains: 1 },
          { month: '2024-03', creatives: 0, domains: 0 },
          { month: '2024-04', creatives: 0, domains: 0 },
          { month: '2024-05', creatives: 1, domains: 1 },
          { month: '2024-06', creatives: 0, domains: 0 },
        ],
      });
    },
  );

  it(
    'months[].creatives / .domains: distinct creatives and landing ' +
      'domains in the month, over all identifiers of the name',
    async () => {
      await load([
        o('AR1', 'Acme', 'C1', '2024-06-01', 'acme.com'),
        o('AR1', 'Acme', 'C1', '2024-06-02', 'acme.com'), // same creative, another day
        o('AR1', 'Acme', 'C1', '2024-06-02', 'acme.de'), // same creative, another domain
        o('AR2', 'Acme', 'C2', '2024-06-03', 'acme.com'), // other identifier, same domain
        o('AR2', 'Acme', 'C2', '2024-05-31', 'acme.fr'), // last day of the previous month
        o('AR3', 'Other', 'C3', '2024-06-03', 'other.com'), // other name
      ]);
      const history = await getAdvertiserHistory(db.sql, 'Acme', NOW);
      expect(history!.months).toEqual([
        { month: '2024-05', creatives: 1, domains: 1 },
        { month: '2024-06', creatives: 2, domains: 2 },
      ]);
    },
  );

  it('window: the current month and the 35 before it; older activity is left out', async () => {
    await load([
      o('AR1', 'Acme', 'C1', '2021-06-30', 'old.com'), // 36 months before June 2024: outside
      o('AR1', 'Acme', 'C2', '2021-07-01', 'acme.com'), // first day of the window
      o('AR1', 'Acme', 'C3', '2024-06-15', 'acme.com'),
    ]);
    const history = await getAdvertiserHistory(db.sql, 'Acme', NOW);
    expect(history!.window_start).toBe('2021-07-01');
    expect(history!.months.map((m) => m.month)).toEqual(monthsFrom('2021-07', 36));
    expect(history!.months[0]).toEqual({ month: '2021-07', creatives: 1, domains: 1 });
    expect(history!.months[35]).toEqual({ month: '2024-06', creatives: 1, domains: 1 });
    expect(history!.months.slice(1, 35).every((m) => m.creatives === 0 && m.domains === 0)).toBe(true);
  });

  it('window_start: the later of the nominal start and the first observed month (over all identifiers)', async () => {
    await load([o('AR1', 'Acme', 'C1', '2024-03-20', 'acme.com'), o('AR2', 'Acme', 'C2', '2023-11-02', 'acme.com')]);
    const history = await getAdvertiserHistory(db.sql, 'Acme', NOW);
    expect(history!.window_start).toBe('2023-11-01');
    expect(history!.months).toHaveLength(8);
  });

  it('all activity older than the window: nominal window_start and 36 zero months', async () => {
    await load([o('AR1', 'Dormant', 'C1', '2020-01-15', 'dormant.com')]);
    const history = await getAdvertiserHistory(db.sql, 'Dormant', NOW);
    expect(history!.window_start).toBe('2021-07-01');
    expect(history!.months).toEqual(monthsFrom('2021-07', 36).map((month) => ({ month, creatives: 0, domains: 0 })));
  });

  it('the current month is the UTC one: just after midnight in +02:00 it is still the previous month', async () => {
    await load([o('AR1', 'Acme', 'C1', '2024-05-31', 'acme.com')]);
    const history = await getAdvertiserHistory(db.sql, 'Acme', new Date('2024-06-01T00:30:00+02:00'));
    expect(history!.months).toEqual([{ month: '2024-05', creatives: 1, domains: 1 }]);
  });

  it('the nominal window crosses year boundaries (January 2024 starts in February 2021)', async () => {
    await load([o('AR1', 'Acme', 'C1', '2019-01-01', 'acme.com')]);
    const history = await getAdvertiserHistory(db.sql, 'Acme', new Date('2024-01-31T23:59:59Z'));
    expect(history!.window_start).toBe('2021-02-01');
    expect(history!.months.at(-1)!.month).toBe('2024-01');
    expect(history!.months).toHaveLength(36);
  });

  it('404: no identifier currently has the name', async () => {
    expect(await getAdvertiserHistory(db.sql, 'Nobody', NOW)).toBeNull();
  });
});

describe('advertiser landing domains', () => {
  it('returns the documented fields in the order of the field table', async () => {
    await load([o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.com')]);
    const result = await getAdvertiserLandingDomains(db.sql, 'Acme');
    expect(Object.keys(result!)).toEqual(['advertiser', 'landing_domain_count', 'landing_domains', 'truncated']);
    expect(Object.keys(result!.landing_domains[0])).toEqual(['domain', 'creatives', 'last_seen']);
  });

  it('[].creatives: distinct creatives of the name on that domain; [].last_seen: latest seen_on there', async () => {
    await load([
      o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.com'),
      o('AR1', 'Acme', 'C1', '2024-01-09', 'acme.com'),
      o('AR1', 'Acme', 'C1', '2024-01-03', 'acme.de'),
      o('AR2', 'Acme', 'C2', '2024-01-05', 'acme.com'), // second identifier of the name
      o('AR3', 'Other', 'C3', '2024-02-01', 'acme.com'), // another name: not counted
    ]);
    expect(await getAdvertiserLandingDomains(db.sql, 'Acme')).toEqual({
      advertiser: 'Acme',
      landing_domain_count: 2,
      landing_domains: [
        { domain: 'acme.com', creatives: 2, last_seen: '2024-01-09' },
        { domain: 'acme.de', creatives: 1, last_seen: '2024-01-03' },
      ],
      truncated: false,
    });
  });

  it('order: creatives descending, then last_seen descending, then domain ascending by code point', async () => {
    await load([
      o('AR1', 'Acme', 'C1', '2024-01-01', 'few.com'),
      o('AR1', 'Acme', 'C2', '2024-01-01', 'many.com'),
      o('AR1', 'Acme', 'C3', '2024-01-01', 'many.com'),
      o('AR1', 'Acme', 'C4', '2024-01-05', 'later.com'),
      // Same creatives and last_seen: code point order puts '-' (0x2D) before '.' and letters,
      // where a locale collation that ignores punctuation would put aa.com first.
      o('AR1', 'Acme', 'C5', '2024-01-03', 'aa.com'),
      o('AR1', 'Acme', 'C6', '2024-01-03', 'a-b.com'),
      o('AR1', 'Acme', 'C7', '2024-01-03', 'ab.com'),
      o('AR1', 'Acme', 'C8', '2024-01-03', 'ab-c.com'),
    ]);
    const result = await getAdvertiserLandingDomains(db.sql, 'Acme');
    expect(result!.landing_domains.map((d) => d.domain)).toEqual([
      'many.com',
      'later.com',
      'a-b.com',
      'aa.com',
      'ab-c.com',
      'ab.com',
      'few.com',
    ]);
  });

  it('cap: at most 500 entries, truncated true, landing_domain_count the full total', async () => {
    const records = Array.from({ length: 501 }, (_, i) =>
      o('AR1', 'Wide', `C${i}`, '2024-01-01', `site${String(i).padStart(3, '0')}.com`),
    );
    records.push(o('AR1', 'Wide', 'C0', '2024-01-02', 'site500.com')); // site500.com: 2 creatives, listed first
    await load(records);
    const result = await getAdvertiserLandingDomains(db.sql, 'Wide');
    expect(result!.landing_domain_count).toBe(501);
    expect(result!.landing_domains).toHaveLength(500);
    expect(result!.truncated).toBe(true);
    expect(result!.landing_domains[0]).toEqual({ domain: 'site500.com', creatives: 2, last_seen: '2024-01-02' });
    expect(result!.landing_domains[1].domain).toBe('site000.com');
    expect(result!.landing_domains[499].domain).toBe('site498.com');
  });

  it('cap: exactly at the cap is not truncated', async () => {
    await load(Array.from({ length: 3 }, (_, i) => o('AR1', 'Acme', `C${i}`, '2024-01-01', `s${i}.com`)));
    expect(await getAdvertiserLandingDomains(db.sql, 'Acme', 3)).toMatchObject({
      landing_domain_count: 3,
      truncated: false,
    });
    const cut = await getAdvertiserLandingDomains(db.sql, 'Acme', 2);
    expect(cut).toMatchObject({ landing_domain_count: 3, truncated: true });
    expect(cut!.landing_domains).toHaveLength(2);
  });

  it('404: no identifier currently has the name', async () => {
    expect(await getAdvertiserLandingDomains(db.sql, 'Nobody')).toBeNull();
  });
});

describe('brand-bid report', () => {
  it('returns the documented fields in the order of the field table', async () => {
    await load([o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.com')]);
    const report = await getBrandBidReport(db.sql, 'acme.com');
    expect(Object.keys(report!)).toEqual(['domain', 'advertiser_count', 'advertisers']);
    expect(Object.keys(report!.advertisers[0])).toEqual([
      'advertiser',
      'advertiser_id',
      'creatives',
      'first_seen',
      'last_seen',
      'landing_domain_count',
      'profile',
    ]);
  });

  it(
    'one row per identifier on the domain: its creatives and ' +
      'first/last seen THERE, its footprint over all its observations',
    async () => {
      await load([
        o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.com'),
        o('AR1', 'Acme', 'C1', '2024-01-07', 'acme.com'), // same creative, another day
        o('AR1', 'Acme', 'C2', '2024-01-04', 'acme.com'),
        o('AR1', 'Acme', 'C3', '2023-05-05', 'acme.de'), // elsewhere: not in creatives or dates, but in footprint
        o('AR2', 'Acme', 'C4', '2024-02-01', 'acme.com'), // same name, own row
      ]);
      expect(await getBrandBidReport(db.sql, 'acme.com')).toEqual({
        domain: 'acme.com',
        advertiser_count: 2,
        advertisers: [
          {
            advertiser: 'Acme',
            advertiser_id: 'AR1',
            creatives: 2,
            first_seen: '2024-01-01',
            last_seen: '2024-01-07',
            landing_domain_count: 2,
            profile: 'few_domains',
          },
          {
            advertiser: 'Acme',
            advertiser_id: 'AR2',
            creatives: 1,
            first_seen: '2024-02-01',
            last_seen: '2024-02-01',
            landing_domain_count: 1,
            profile: 'single_domain',
          },
        ],
      });
    },
  );

  it("advertiser is the identifier's current name", async () => {
    await load([
      o('AR1', 'Before', 'C1', '2024-01-01', 'acme.com'),
      o('AR1', 'After', 'C2', '2024-03-01', 'elsewhere.com'),
    ]);
    expect((await getBrandBidReport(db.sql, 'acme.com'))!.advertisers[0].advertiser).toBe('After');
  });

  it('order: creatives descending, then last_seen descending, then advertiser_id ascending by code point', async () => {
    await load([
      o('AR5', 'E', 'C1', '2024-01-01', 'acme.com'),
      o('AR5', 'E', 'C2', '2024-01-01', 'acme.com'),
      o('AR6', 'F', 'C3', '2024-01-09', 'acme.com'),
      o('AR9', 'G', 'C4', '2024-01-05', 'acme.com'),
      o('AR10', 'H', 'C5', '2024-01-05', 'acme.com'),
      o('AR1', 'I', 'C6', '2024-01-01', 'acme.com'),
    ]);
    const report = await getBrandBidReport(db.sql, 'acme.com');
    expect(report!.advertisers.map((a) => a.advertiser_id)).toEqual(['AR5', 'AR6', 'AR10', 'AR9', 'AR1']);
  });

  it(
    'profile by landing_domain_count: 1 single_domain, 2 ' + 'to 4 few_domains, 5 or more multi_domain_intermediary',
    async () => {
      const footprint = (id: string, domains: number) => [
        o(id, id, `${id}-C`, '2024-01-01', 'acme.com'),
        ...Array.from({ length: domains - 1 }, (_, i) =>
          o(id, id, `${id}-C${i}`, '2024-01-01', `${id.toLowerCase()}-${i}.com`),
        ),
      ];
      await load([
        ...footprint('AR1', 1),
        ...footprint('AR2', 2),
        ...footprint('AR3', 3),
        ...footprint('AR4', 4),
        ...footprint('AR5', 5),
        ...footprint('AR6', 6),
      ]);
      const report = await getBrandBidReport(db.sql, 'acme.com');
      const profiles = Object.fromEntries(report!.advertisers.map((a) => [a.landing_domain_count, a.profile]));
      expect(profiles).toEqual({
        1: 'single_domain',
        2: 'few_domains',
        3: 'few_domains',
        4: 'few_domains',
        5: 'multi_domain_intermediary',
        6: 'multi_domain_intermediary',
      });
    },
  );

  it('cap: at most 100 rows; advertiser_count counts all and equals the domain summary advertisers', async () => {
    await load(
      Array.from({ length: 101 }, (_, i) => o(`AR${1000 + i}`, `Bidder ${i}`, `C${i}`, '2024-01-01', 'acme.com')),
    );
    const report = await getBrandBidReport(db.sql, 'acme.com');
    expect(report!.advertiser_count).toBe(101);
    expect(report!.advertisers).toHaveLength(100);
    expect(report!.advertisers.at(-1)!.advertiser_id).toBe('AR1099');
    expect((await getDomainSummary(db.sql, 'acme.com'))!.advertisers).toBe(101);
  });

  it('crawled-only domain: advertiser_count 0 and an empty list', async () => {
    await ingestCrawls(db.sql, [{ domain: 'quiet-harbor.co.uk', crawled_at: '2024-02-01 12:00:00' }]);
    expect(await getBrandBidReport(db.sql, 'quiet-harbor.co.uk')).toEqual({
      domain: 'quiet-harbor.co.uk',
      advertiser_count: 0,
      advertisers: [],
    });
  });

  it('404: neither an observation nor a crawl', async () => {
    expect(await getBrandBidReport(db.sql, 'unknown.com')).toBeNull();
  });
});

describe('dates never shift with the server time zone', () => {
  it('every lookup answers the same under UTC+14 and UTC-10', async () => {
    await load([
      o('AR1', 'Acme', 'C1', '2024-01-01', 'acme.com'),
      o('AR1', 'Acme', 'C2', '2024-06-30', 'acme.de'),
      o('AR2', 'Acme', 'C3', '2024-03-31', 'acme.com'),
    ]);
    await ingestCrawls(db.sql, [{ domain: 'acme.com', crawled_at: '2024-06-30 23:59:59' }]);
    const now = new Date('2024-06-30T23:00:00Z');
    const answers = async (sql: typeof db.sql) => [
      await getAdvertiserSummary(sql, 'Acme'),
      await getDomainSummary(sql, 'acme.com'),
      await getAdvertiserHistory(sql, 'Acme', now),
      await getAdvertiserLandingDomains(sql, 'Acme'),
      await getBrandBidReport(sql, 'acme.com'),
    ];
    const expected = await answers(db.sql);
    const database = new URL(db.url).pathname.slice(1);
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Honolulu']) {
      await db.sql.unsafe(`ALTER DATABASE ${database} SET TimeZone = '${zone}'`);
      const zoned = connect(db.url, 1);
      try {
        expect((await zoned`SHOW TimeZone`)[0].TimeZone).toBe(zone);
        expect(await answers(zoned)).toEqual(expected);
      } finally {
        await zoned.end();
      }
    }
    await db.sql.unsafe(`ALTER DATABASE ${database} RESET TimeZone`);
    expect(expected[1]).toMatchObject({ last_crawled: '2024-06-30 23:59:59' });
  });
});
