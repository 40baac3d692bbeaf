import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootDomain } from '../../src/contract/root-domain.ts';
import {
  getAdvertiserHistory,
  getAdvertiserLandingDomains,
  getAdvertiserSummary,
  getBrandBidReport,
  getDomainSummary,
} from '../../src/data/lookups.ts';
import { searchAdvertisers } from '../../src/data/search.ts';
import { checkAggregates, ingestCrawls, ingestLabels, ingestObservations } from '../../src/ingest/index.ts';
import { type Dataset, DEMO, generateDataset } from '../../src/synthetic/generator.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

const TODAY = new Date('2024-06-15T08:00:00Z');

function digest(records: Iterable<unknown>): { count: number; hash: string } {
  const hash = createHash('sha256');
  let count = 0;
  for (const record of records) {
    hash.update(JSON.stringify(record));
    count += 1;
  }
  return { count, hash: hash.digest('hex') };
}

const digestAll = (dataset: Dataset) => ({
  observations: digest(dataset.observations()),
  crawls: digest(dataset.crawls()),
  labels: digest(dataset.labels()),
});

describe('synthetic generator: deterministic', () => {
  it('the same seed, size and today give identical records, call after call', () => {
    const a = generateDataset({ seed: 7, size: 20_000, today: TODAY });
    const b = generateDataset({ seed: 7, size: 20_000, today: TODAY });
    const first = digestAll(a);
    expect(digestAll(a)).toEqual(first);
    expect(digestAll(b)).toEqual(first);
  });

  it('another seed changes the background population, not the fixtures', () => {
    const a = generateDataset({ seed: 1, size: 20_000, today: TODAY });
    const b = generateDataset({ seed: 2, size: 20_000, today: TODAY });
    expect(digestAll(a).observations.hash).not.toBe(digestAll(b).observations.hash);
    const fixtures = (dataset: Dataset) =>
      digest([...dataset.observations()].filter((r) => !r.advertiser_id.startsWith('AR2')));
    expect(fixtures(a)).toEqual(fixtures(b));
  });

  it('size is the approximate number of observation records', () => {
    for (const size of [10_000, 60_000]) {
      const { count } = digest(generateDataset({ seed: 3, size, today: TODAY }).observations());
      expect(Math.abs(count - size) / size).toBeLessThan(0.1);
    }
  });

  it('streams: the first record of a 20-million dataset comes at once', () => {
    const started = performance.now();
    const first = generateDataset({ size: 20_000_000, today: TODAY }).observations().next();
    expect(first.done).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('dates stay within the 48 months up to today, crawl times use every accepted form', () => {
    const dataset = generateDataset({ seed: 4, size: 20_000, today: TODAY });
    let min = '9999-12-31';
    let max = '0000-01-01';
    for (const { seen_on } of dataset.observations()) {
      if (seen_on < min) min = seen_on;
      if (seen_on > max) max = seen_on;
    }
    expect(max <= '2024-06-15').toBe(true);
    expect(min < '2021-06-15').toBe(true); // more than 36 months of activity
    const forms = new Set(
      [...dataset.crawls()].map(({ crawled_at }) =>
        /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(crawled_at)
          ? 'space'
          : /Z$/.test(crawled_at)
            ? crawled_at.includes('.')
              ? 'fraction Z'
              : 'Z'
            : /[+-]\d\d:\d\d$/.test(crawled_at)
              ? '+hh:mm'
              : /[+-]\d{4}$/.test(crawled_at)
                ? '+hhmm'
                : crawled_at,
      ),
    );
    expect([...forms].sort()).toEqual(['+hh:mm', '+hhmm', 'Z', 'fraction Z', 'space']);
  });
});

describe('synthetic generator: the shapes the demo and the tests rely on, after ingest', () => {
  let db: TestDatabase;
  const dataset = generateDataset({ seed: 11, size: 15_000, today: TODAY });

  beforeAll(async () => {
    db = await createTestDatabase();
    const observations = await ingestObservations(db.sql, dataset.observations(), { today: TODAY });
    const crawls = await ingestCrawls(db.sql, dataset.crawls());
    const labels = await ingestLabels(db.sql, dataset.labels());
    // Every generated record is valid.
    expect([observations.rejected, crawls.rejected, labels.rejected]).toEqual([0, 0, 0]);
    expect(observations.new).toBe(observations.read);
  }, 120_000);
  afterAll(async () => {
    await db.drop();
  });

  it('aggregates agree with the observations', async () => {
    expect(await checkAggregates(db.sql)).toEqual([]);
  });

  it('intermediary with more than 500 landing domains: the list is truncated at 500', async () => {
    const result = await getAdvertiserLandingDomains(db.sql, DEMO.intermediaryName);
    expect(result!.landing_domain_count).toBe(DEMO.intermediaryDomainCount);
    expect(DEMO.intermediaryDomainCount).toBeGreaterThan(500);
    expect(result!.landing_domains).toHaveLength(500);
    expect(result!.truncated).toBe(true);
    expect(await getAdvertiserSummary(db.sql, DEMO.intermediaryName)).toMatchObject({
      advertiser_ids: [DEMO.intermediaryId],
      advertiser_type: 'agency',
    });
    expect((await getAdvertiserLandingDomains(db.sql, DEMO.secondIntermediaryName))!).toMatchObject({
      landing_domain_count: DEMO.secondIntermediaryDomainCount,
      truncated: false,
    });
  });

  it(
    'brand domain that more than 100 identifiers send ads ' + 'to: 100 rows, the brand first, every profile present',
    async () => {
      const report = await getBrandBidReport(db.sql, DEMO.brandDomain);
      expect(report!.advertiser_count).toBe(DEMO.brandDomainAdvertisers);
      expect(DEMO.brandDomainAdvertisers).toBeGreaterThan(100);
      expect(report!.advertisers).toHaveLength(100);
      expect(report!.advertisers[0]).toMatchObject({
        advertiser: DEMO.brandName,
        advertiser_id: DEMO.brandId,
        profile: 'single_domain',
      });
      expect(new Set(report!.advertisers.map((a) => a.profile))).toEqual(
        new Set(['single_domain', 'few_domains', 'multi_domain_intermediary']),
      );
      const counts = new Set(report!.advertisers.map((a) => a.landing_domain_count));
      for (const boundary of [1, 2, 4, 5]) expect(counts.has(boundary)).toBe(true);
      expect((await getAdvertiserSummary(db.sql, DEMO.brandName))!.advertiser_type).toBe('direct');
    },
  );

  it('name shared by several identifiers: merged, distinct domains fewer than their sum, unlabelled', async () => {
    expect(await getAdvertiserSummary(db.sql, DEMO.sharedName)).toEqual({
      advertiser: DEMO.sharedName,
      advertiser_ids: [...DEMO.sharedNameIds],
      creatives: DEMO.sharedNameCreatives,
      landing_domains: DEMO.sharedNameLandingDomains,
      last_seen: expect.any(String),
      country: DEMO.sharedNameCountry,
      advertiser_type: null,
    });
    const [{ shared }] = await db.sql`
      SELECT count(*)::integer AS shared FROM (SELECT name FROM identifiers GROUP BY name HAVING count(*) > 1) n`;
    expect(shared).toBeGreaterThan(5);
  });

  it('single-domain brand and few-domain advertiser', async () => {
    expect(await getAdvertiserLandingDomains(db.sql, DEMO.singleDomainName)).toMatchObject({
      landing_domain_count: 1,
      landing_domains: [{ domain: DEMO.singleDomain }],
    });
    const few = await getAdvertiserLandingDomains(db.sql, DEMO.fewDomainsName);
    expect(few!.landing_domains.map((d) => d.domain).sort()).toEqual([...DEMO.fewDomains]);
  });

  it('renamed identifier: the current name answers, the former name is 404', async () => {
    expect((await getAdvertiserSummary(db.sql, DEMO.renamedName))!.advertiser_ids).toEqual([DEMO.renamedId]);
    expect(await getAdvertiserSummary(db.sql, DEMO.formerName)).toBeNull();
  });

  it('activity over more than 36 months; the dormant advertiser has 36 zero months', async () => {
    const shared = await getAdvertiserHistory(db.sql, DEMO.sharedName, TODAY);
    expect(shared!.window_start).toBe('2021-07-01');
    expect(shared!.months.filter((m) => m.creatives > 0).length).toBeGreaterThan(10);
    const dormant = await getAdvertiserHistory(db.sql, DEMO.dormantName, TODAY);
    expect(dormant!.window_start).toBe('2021-07-01');
    expect(dormant!.months).toHaveLength(36);
    expect(dormant!.months.every((m) => m.creatives === 0 && m.domains === 0)).toBe(true);
  });

  it('crawled-only domain: has_data false, no advertisers, a crawl time', async () => {
    expect(await getDomainSummary(db.sql, DEMO.crawledOnlyDomain)).toMatchObject({
      advertisers: 0,
      has_data: false,
      last_crawled: expect.any(String),
    });
    expect(await getBrandBidReport(db.sql, DEMO.crawledOnlyDomain)).toEqual({
      domain: DEMO.crawledOnlyDomain,
      advertiser_count: 0,
      advertisers: [],
    });
  });

  it('some names labelled agency, some direct, some unlabelled', async () => {
    const [row] = await db.sql`
      SELECT count(*) FILTER (WHERE l.advertiser_type = 'agency')::integer AS agency,
             count(*) FILTER (WHERE l.advertiser_type = 'direct')::integer AS direct,
             count(*) FILTER (WHERE l.advertiser_type IS NULL)::integer AS unlabelled
      FROM (SELECT DISTINCT name FROM identifiers) n
      LEFT JOIN labels l ON l.advertiser_name = n.name`;
    expect(row.agency).toBeGreaterThan(3);
    expect(row.direct).toBeGreaterThan(3);
    expect(row.unlabelled).toBeGreaterThan(row.agency + row.direct);
  });

  it('names in other scripts and internationalized domains: found in another case or without accents', async () => {
    const queries = [
      'сбербанк россии',
      '東京ガス株式会社',
      'MULLER BACKEREI GMBH',
      'dab zywnosc',
      'ελληνικα τροφιμα α.ε.',
      'شركة الاتصالات السعودية',
      'בנק לאומי',
      'टाटा मोटर्स',
      'ธนาคารกรุงเทพ',
      '㈜삼성전자',
      '中国银行股份有限公司',
    ];
    for (const [k, { name, domain }] of DEMO.worldAdvertisers.entries()) {
      const { advertisers } = await searchAdvertisers(db.sql, queries[k]);
      expect([queries[k], advertisers[0]?.advertiser]).toEqual([queries[k], name]);
      const summary = await getAdvertiserSummary(db.sql, name);
      expect(summary?.landing_domains).toBe(1);
      expect(await getDomainSummary(db.sql, rootDomain(`https://${domain}/`)!)).toMatchObject({ has_data: true });
    }
  });

  it('unknown name and domain are 404', async () => {
    expect(await getAdvertiserSummary(db.sql, DEMO.unknownName)).toBeNull();
    expect(await getDomainSummary(db.sql, DEMO.unknownDomain)).toBeNull();
  });
});
