/**
 * Deterministic synthetic data in the ingest field format: the same seed, size and today give
 * byte-identical records. Records are produced by generator functions, advertiser by advertiser,
 * so memory stays constant whatever the size (a later issue streams 20 million observations).
 *
 * The data has a fixed set of fixtures, the same for every seed and size (see DEMO), followed by
 * a seeded background population that scales with `size`:
 *  - single-domain brands, few-domain advertisers (2–4 domains) and multi-domain intermediaries;
 *  - names shared by several identifiers (merged by name);
 *  - activity spread over four years before `today`, so the 36-month history window cuts it;
 *  - crawl times in every accepted `crawled_at` form; labels on some names, none on others;
 *  - landing URLs with schemes, `www.`, sub-domains, paths, queries and mixed case.
 * The background's names come from `names`: by default a few dozen English words (the demo
 * dataset the service loads); `generate-data` passes world-names.ts, names from every script.
 */

// Type aliases, not interfaces, so records are assignable to Record<string, unknown>.
export type ObservationRecord = {
  creative_id: string;
  advertiser_id: string;
  advertiser_name: string;
  country: string;
  seen_on: string;
  landing_url: string;
};

export type CrawlRecord = {
  domain: string;
  crawled_at: string;
};

export type LabelRecord = {
  advertiser_name: string;
  advertiser_type: 'agency' | 'direct';
};

export interface DatasetOptions {
  /** PRNG seed of the background population; default DEFAULT_SEED. */
  seed?: number;
  /** Approximate number of observation records; default DEFAULT_DEMO_SIZE. */
  size?: number;
  /** Last day of activity (UTC day); default now. */
  today?: Date;
  /** Background advertiser i's name, domain and country, from the seed; default plainNames, a
   * few dozen English words (world-names.ts has names from every script). */
  names?: (seed: number) => (i: number) => BackgroundName;
}

export type BackgroundName = { name: string; domain: string; country: string };

export interface Dataset {
  seed: number;
  size: number;
  /** `YYYY-MM-DD` of the last day with activity. */
  today: string;
  /** Each call starts the sequence afresh and yields the same records. */
  observations(): Generator<ObservationRecord>;
  crawls(): Generator<CrawlRecord>;
  labels(): Generator<LabelRecord>;
}

export const DEFAULT_SEED = 20_240_615;
/** Ingests in a few seconds. */
export const DEFAULT_DEMO_SIZE = 30_000;

/**
 * The notable fixtures. Their names, identifiers, domains and counts are the same for every
 * seed and size; their dates move with `today`.
 */
export const DEMO = {
  /** Multi-domain intermediary (label `agency`): one identifier on 621 landing domains, so
   * `/advertiser/domains` lists 500 of them with `truncated: true`. */
  intermediaryName: 'Northwind Media Group',
  intermediaryId: 'AR10000000000000000002',
  intermediaryDomainCount: 621,
  /** A second intermediary (label `agency`) with a few hundred domains, under the cap. */
  secondIntermediaryName: 'Bluefin Performance Partners',
  secondIntermediaryDomainCount: 241,
  /** Brand domain that 130 distinct identifiers send ads to: the brand-bid report lists 100
   * with `advertiser_count: 130`. Its first row is the brand itself (most creatives). */
  brandDomain: 'acme-outdoor.com',
  brandDomainAdvertisers: 130,
  /** The brand (label `direct`), a single-domain advertiser on brandDomain. */
  brandName: 'Acme Outdoor',
  brandId: 'AR10000000000000000001',
  /** One name held by three identifiers (DE, GB, US), merged by name; unlabelled. They share
   * globex-retail.com, so its landing_domains (3) is less than the identifiers' sum (5); its
   * activity spans four years. Country GB: DE and GB tie on creatives, GB was seen last. */
  sharedName: 'Globex Retail',
  sharedNameIds: ['AR10000000000000000011', 'AR10000000000000000012', 'AR10000000000000000013'],
  sharedNameCountry: 'GB',
  sharedNameCreatives: 70,
  sharedNameLandingDomains: 3,
  /** Single-domain brand (label `direct`). */
  singleDomainName: 'Fjord Coffee Roasters',
  singleDomain: 'fjord-coffee.de',
  /** Few-domain advertiser (3 domains), unlabelled. */
  fewDomainsName: 'Brightline Bikes',
  fewDomains: ['brightline-bikes.co.uk', 'brightline-bikes.com', 'brightlinebikes.de'],
  /** One identifier renamed a year ago: the current name answers, the former one is 404. */
  renamedName: 'Initech Solutions',
  formerName: 'Initrode Labs',
  renamedId: 'AR10000000000000000023',
  /** All activity 40–47 months ago: history answers the nominal window with 36 zero months. */
  dormantName: 'Vintage Lamp Company',
  /** Crawled, never seen in an observation: 200 with `has_data: false`, no advertisers. */
  crawledOnlyDomain: 'quiet-harbor.co.uk',
  /** Advertisers whose names are in other scripts, or carry letters beyond A-Z, each on its own
   * domain (some internationalized): a search in another case or without accents finds them
   * (docs/product-rules.md R15.2). */
  worldAdvertisers: [
    { name: 'Сбербанк России', country: 'RU', domain: 'sberbank-demo.ru' },
    { name: '東京ガス株式会社', country: 'JP', domain: 'tokyo-gas-demo.co.jp' },
    { name: 'Müller Bäckerei GmbH', country: 'DE', domain: 'müller-bäckerei.de' },
    { name: 'Dąb Żywność', country: 'PL', domain: 'dąb-żywność.pl' },
    { name: 'Ελληνικά Τρόφιμα Α.Ε.', country: 'GR', domain: 'ελληνικά-τρόφιμα.gr' },
    { name: 'شركة الاتصالات السعودية', country: 'SA', domain: 'stc-demo.com.sa' },
    { name: 'בנק לאומי', country: 'IL', domain: 'leumi-demo.co.il' },
    { name: 'टाटा मोटर्स', country: 'IN', domain: 'tata-motors-demo.in' },
    { name: 'ธนาคารกรุงเทพ', country: 'TH', domain: 'bangkok-bank-demo.co.th' },
    { name: '(주)삼성전자', country: 'KR', domain: 'samsung-demo.co.kr' },
    { name: '中国银行股份有限公司', country: 'CN', domain: 'boc-demo.cn' },
  ],
  /** Present nowhere: 404. */
  unknownName: 'No Such Advertiser Ltd',
  unknownDomain: 'never-seen-example.org',
} as const;

// ---------------------------------------------------------------------------------------------
// Randomness: mulberry32 seeded per advertiser, so any advertiser can be regenerated on its own.

export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Mixes integers into one 32-bit seed (murmur3 finalizer per step). */
export function mix(...values: number[]): number {
  let h = 0x9e3779b9;
  for (const value of values) {
    h = Math.imul(h ^ (value >>> 0) ^ Math.floor(value / 4294967296), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];

// ---------------------------------------------------------------------------------------------
// Dates, as UTC day numbers (days since 1970-01-01).

const DAY_MS = 86_400_000;
const dayOf = (date: Date) => Math.floor(date.getTime() / DAY_MS);
const isoDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** Approximate month, for placing activity "N months ago". */
const MONTH_DAYS = 30.44;
const monthsAgo = (today: number, months: number) => today - Math.round(months * MONTH_DAYS);

// ---------------------------------------------------------------------------------------------
// Names and domains.

const TLDS = ['com', 'co.uk', 'de', 'fr', 'nl', 'es', 'it', 'com.au', 'ca', 'se', 'at', 'ch'] as const;
const COUNTRY_OF_TLD: Record<string, string> = {
  com: 'US',
  'co.uk': 'GB',
  de: 'DE',
  fr: 'FR',
  nl: 'NL',
  es: 'ES',
  it: 'IT',
  'com.au': 'AU',
  ca: 'CA',
  se: 'SE',
  at: 'AT',
  ch: 'CH',
};
// No word here starts a fixture's name or domain, so the background never collides with them.
const PREFIXES = [
  'Redwood',
  'Silverline',
  'Evergreen',
  'Harbor',
  'Ironclad',
  'Juniper',
  'Kestrel',
  'Lumen',
  'Maple',
  'Nimbus',
  'Oakridge',
  'Pinecrest',
  'Quartz',
  'Riverside',
  'Sable',
  'Tidewater',
  'Umber',
  'Vantage',
  'Willow',
  'Zephyr',
  'Alder',
  'Birch',
  'Cobalt',
  'Driftwood',
  'Ember',
  'Falcon',
  'Granite',
  'Hollow',
  'Indigo',
  'Jasper',
  'Keystone',
  'Larkspur',
] as const;
const NOUNS = [
  'Outdoor',
  'Coffee',
  'Bikes',
  'Travel',
  'Home',
  'Garden',
  'Pets',
  'Fitness',
  'Books',
  'Audio',
  'Apparel',
  'Shoes',
  'Kitchen',
  'Lighting',
  'Tools',
  'Toys',
  'Beauty',
  'Wellness',
  'Insurance',
  'Finance',
  'Energy',
  'Motors',
  'Furniture',
  'Jewelry',
  'Optics',
  'Software',
  'Games',
  'Foods',
  'Wines',
  'Tea',
  'Yoga',
  'Camping',
  'Marine',
  'Watches',
  'Bags',
  'Paints',
  'Flooring',
  'Solar',
  'Dental',
  'Realty',
] as const;
const SUFFIXES = ['', ' Ltd', ' GmbH', ' LLC', ' Inc.', ' S.A.', ' B.V.', ' Co.', ' AB', ' Group'] as const;
const REGIONS = [
  '',
  'Nordic',
  'Europe',
  'UK',
  'Iberia',
  'Benelux',
  'Alpine',
  'Pacific',
  'Atlantic',
  'Direct',
  'Online',
  'Express',
  'Studio',
  'Works',
  'Supply',
  'Labs',
  'Collective',
  'Outlet',
  'Club',
  'Hub',
] as const;
/** Words of the publisher and merchant sites intermediaries send ads to. */
const POOL_HEADS = [
  'deal',
  'shop',
  'price',
  'compare',
  'best',
  'smart',
  'daily',
  'top',
  'value',
  'quick',
  'happy',
  'green',
  'urban',
  'prime',
  'fresh',
  'bright',
  'true',
  'bold',
  'clear',
  'swift',
  'lucky',
  'royal',
  'metro',
  'global',
  'local',
  'super',
  'mega',
  'micro',
  'open',
  'easy',
  'go',
  'my',
  'the',
  'one',
  'pro',
  'net',
  'web',
  'hello',
  'blue',
  'red',
] as const;
const POOL_TAILS = [
  'hub',
  'nest',
  'finder',
  'spot',
  'zone',
  'mart',
  'point',
  'base',
  'world',
  'corner',
  'place',
  'market',
  'store',
  'depot',
  'lane',
  'street',
  'square',
  'bay',
  'port',
  'yard',
  'guide',
  'review',
  'picks',
  'buys',
  'savings',
  'offers',
  'coupons',
  'outlet',
  'plaza',
  'central',
  'direct',
  'online',
  'express',
  'today',
  'now',
  'club',
  'circle',
  'crew',
  'lab',
  'works',
] as const;
const POOL_SIZE = POOL_HEADS.length * POOL_TAILS.length;

function poolDomain(index: number): string {
  const head = POOL_HEADS[index % POOL_HEADS.length];
  const tail = POOL_TAILS[Math.floor(index / POOL_HEADS.length) % POOL_TAILS.length];
  return `${head}${tail}.${TLDS[(index * 7) % TLDS.length]}`;
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function landingUrl(rng: Rng, domain: string, path: string): string {
  const r = rng();
  if (r < 0.45) return `https://www.${domain}/${path}?utm_source=google&utm_medium=cpc`;
  if (r < 0.7) return `https://${domain}/${path}`;
  if (r < 0.82) return `https://shop.${domain}/${path}?gclid=${Math.floor(rng() * 1e9)}`;
  if (r < 0.92) return `http://www.${domain}/${path}#offers`;
  return `HTTPS://WWW.${domain.toUpperCase()}/${path}`;
}

const id = (group: number, index: number) => `AR${group}${String(index).padStart(19, '0')}`;
const creativeId = (advertiser: string, index: number) => `CR${advertiser.slice(2)}${String(index).padStart(5, '0')}`;

// ---------------------------------------------------------------------------------------------
// Observations of one identifier.

interface Identifier {
  advertiserId: string;
  name: string;
  country: string;
  /** Landing domains; creative k lands first on domains[k % length]. */
  domains: readonly string[];
  creatives: number;
  /** First and last day of activity. */
  firstDay: number;
  lastDay: number;
  /** Chance that a creative also lands on a second domain on a given day. */
  spread?: number;
  /** Days each creative is observed on. */
  minDays?: number;
  maxDays?: number;
  /** Name before `renamedOn`, for renamed identifiers. */
  formerName?: string;
  renamedOn?: number;
}

/**
 * Every creative is observed on at least one day and lands on its own domain (so every listed
 * domain is used), sometimes also on the next one; (creative, day, domain) never repeats.
 */
function* observationsOf(rng: Rng, who: Identifier): Generator<ObservationRecord> {
  const minDays = who.minDays ?? 1;
  const maxDays = who.maxDays ?? 6;
  const span = who.lastDay - who.firstDay;
  for (let k = 0; k < who.creatives; k += 1) {
    const creative = creativeId(who.advertiserId, k);
    const primary = k % who.domains.length;
    const days = int(rng, minDays, maxDays);
    let day = who.firstDay + Math.floor(rng() * (span + 1));
    const path = `${pick(rng, ['sale', 'new', 'collection', 'offers', 'p'])}/${k}`;
    for (let n = 0; n < days && day <= who.lastDay; n += 1) {
      const name = who.renamedOn !== undefined && day < who.renamedOn ? who.formerName! : who.name;
      const base = {
        creative_id: creative,
        advertiser_id: who.advertiserId,
        advertiser_name: name,
        country: who.country,
        seen_on: isoDay(day),
      };
      yield { ...base, landing_url: landingUrl(rng, who.domains[primary], path) };
      if (who.domains.length > 1 && rng() < (who.spread ?? 0.1)) {
        yield { ...base, landing_url: landingUrl(rng, who.domains[(primary + 1) % who.domains.length], path) };
      }
      day += int(rng, 1, 12);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Fixtures: the same for every seed and size.

const FIXTURE_SEED = 0x5eed;
const BIDDER_ADJECTIVES = [
  'Summit',
  'Trailhead',
  'Basecamp',
  'Ridge',
  'Canyon',
  'Alpine',
  'Wild',
  'Backcountry',
  'Peak',
  'Northern',
] as const;
const BIDDER_NOUNS = [
  'Gear',
  'Deals',
  'Outfitters',
  'Supply',
  'Adventure',
  'Sports',
  'Camping',
  'Trek',
  'Expeditions',
  'Trading',
  'Basics',
  'Rentals',
  'Finds',
] as const;
const BIDDER_KINDS = ['Outlet', 'Shop', 'Store', 'Online', 'Direct', 'Club', 'Co'] as const;
const BIDDERS = DEMO.brandDomainAdvertisers - 3;

function fixtureIdentifiers(today: number): Identifier[] {
  const recent = (months: number) => ({ firstDay: monthsAgo(today, months), lastDay: today });
  const northwindDomains = [
    ...Array.from({ length: DEMO.intermediaryDomainCount - 1 }, (_, i) => poolDomain(i)),
    DEMO.brandDomain,
  ];
  const bluefinDomains = [
    ...Array.from({ length: DEMO.secondIntermediaryDomainCount - 1 }, (_, i) => poolDomain(400 + i)),
    DEMO.brandDomain,
  ];
  const fixtures: Identifier[] = [
    {
      advertiserId: DEMO.brandId,
      name: DEMO.brandName,
      country: 'US',
      domains: [DEMO.brandDomain],
      creatives: 40,
      ...recent(30),
      minDays: 4,
      maxDays: 10,
    },
    {
      advertiserId: DEMO.intermediaryId,
      name: DEMO.intermediaryName,
      country: 'GB',
      domains: northwindDomains,
      creatives: 700,
      ...recent(24),
      minDays: 1,
      maxDays: 3,
    },
    {
      advertiserId: id(1, 3),
      name: DEMO.secondIntermediaryName,
      country: 'NL',
      domains: bluefinDomains,
      creatives: 260,
      ...recent(18),
      minDays: 1,
      maxDays: 3,
    },
    // Globex Retail: DE and GB tie on 30 creatives; GB's last day is today, DE's a month ago.
    {
      advertiserId: DEMO.sharedNameIds[0],
      name: DEMO.sharedName,
      country: 'DE',
      domains: ['globex-retail.de', 'globex-retail.com'],
      creatives: 30,
      firstDay: monthsAgo(today, 47),
      lastDay: monthsAgo(today, 1),
    },
    {
      advertiserId: DEMO.sharedNameIds[1],
      name: DEMO.sharedName,
      country: 'GB',
      domains: ['globex-retail.co.uk', 'globex-retail.com'],
      creatives: 30,
      firstDay: monthsAgo(today, 20),
      lastDay: today,
    },
    {
      advertiserId: DEMO.sharedNameIds[2],
      name: DEMO.sharedName,
      country: 'US',
      domains: ['globex-retail.com'],
      creatives: 10,
      firstDay: monthsAgo(today, 40),
      lastDay: monthsAgo(today, 6),
    },
    {
      advertiserId: id(1, 21),
      name: DEMO.singleDomainName,
      country: 'DE',
      domains: [DEMO.singleDomain],
      creatives: 12,
      ...recent(14),
    },
    {
      advertiserId: id(1, 22),
      name: DEMO.fewDomainsName,
      country: 'GB',
      domains: DEMO.fewDomains,
      creatives: 15,
      ...recent(10),
      spread: 0.3,
    },
    {
      advertiserId: DEMO.renamedId,
      name: DEMO.renamedName,
      formerName: DEMO.formerName,
      renamedOn: monthsAgo(today, 12),
      country: 'US',
      domains: ['initech.com', 'initech.co.uk'],
      creatives: 20,
      ...recent(30),
      minDays: 3,
      maxDays: 8,
    },
    {
      advertiserId: id(1, 24),
      name: DEMO.dormantName,
      country: 'FR',
      domains: ['vintage-lamp.fr'],
      creatives: 8,
      firstDay: monthsAgo(today, 47),
      lastDay: monthsAgo(today, 40),
    },
  ];
  DEMO.worldAdvertisers.forEach(({ name, country, domain }, k) => {
    fixtures.push({
      advertiserId: id(1, 30 + k),
      name,
      country,
      domains: [domain],
      creatives: 3 + (k % 4),
      ...recent(6 + k),
    });
  });
  // Resellers and affiliates bidding on the brand: 1 to 6 landing domains each, so every
  // profile boundary (1, 2, 4, 5) is present.
  for (let k = 0; k < BIDDERS; k += 1) {
    const name = `${BIDDER_ADJECTIVES[k % 10]} ${BIDDER_NOUNS[Math.floor(k / 10) % 13]} ${BIDDER_KINDS[k % 7]}`;
    const own = Array.from(
      { length: k % 6 },
      (_, j) => `${slug(name)}${j === 0 ? '' : `-${j + 1}`}.${TLDS[(k + j) % TLDS.length]}`,
    );
    fixtures.push({
      advertiserId: id(3, k + 1),
      name,
      country: pick(mulberry32(mix(FIXTURE_SEED, k)), ['US', 'GB', 'DE', 'CA', 'AU']),
      domains: [DEMO.brandDomain, ...own],
      creatives: 1 + (k % 6) + (k % 4),
      ...recent(3 + (k % 20)),
      minDays: 1,
      maxDays: 4,
    });
  }
  return fixtures;
}

// ---------------------------------------------------------------------------------------------
// Background population: advertiser i is a pure function of (seed, i).

/** Mean observation records per background advertiser, measured; sizes the population. */
const MEAN_BACKGROUND_OBSERVATIONS = 23;
/** Observation records of the fixtures, measured. */
const FIXTURE_OBSERVATIONS = 4_560;

function plainName(i: number): BackgroundName {
  // Mixed radix over the word lists gives every index its own name; past the lists' product a
  // round number keeps names unique.
  let rest = i;
  const prefix = PREFIXES[rest % PREFIXES.length];
  rest = Math.floor(rest / PREFIXES.length);
  const noun = NOUNS[rest % NOUNS.length];
  rest = Math.floor(rest / NOUNS.length);
  const suffix = rest % SUFFIXES.length;
  rest = Math.floor(rest / SUFFIXES.length);
  const region = REGIONS[rest % REGIONS.length];
  const round = Math.floor(rest / REGIONS.length);
  const stem = [prefix, noun, region, round > 0 ? String(round + 1) : ''].filter(Boolean).join(' ');
  const tld = TLDS[suffix];
  return { name: `${stem}${SUFFIXES[suffix]}`, domain: `${slug(stem)}.${tld}`, country: COUNTRY_OF_TLD[tld] };
}

/** Names from a few dozen English words, each index its own. */
export const plainNames = (_seed: number) => plainName;

/** Every 25th background identifier shares the previous one's name (another country). */
const sharesPreviousName = (i: number) => i % 25 === 24;

function backgroundIdentifier(
  seed: number,
  i: number,
  today: number,
  backgroundName: (i: number) => BackgroundName,
): Identifier {
  const rng = mulberry32(mix(seed, i, 1));
  const own = backgroundName(sharesPreviousName(i) ? i - 1 : i);
  const tld = own.domain.slice(own.domain.indexOf('.') + 1);
  const country = sharesPreviousName(i) ? pick(rng, ['US', 'GB', 'DE', 'FR', 'AU']) : own.country;
  const kind = rng();
  let domains: string[];
  let creatives: number;
  if (kind < 0.55) {
    domains = [own.domain];
    creatives = int(rng, 1, 6);
  } else if (kind < 0.85) {
    const stem = own.domain.slice(0, own.domain.indexOf('.'));
    // An internationalized label takes no English word: a right-to-left one could not hold it.
    const variants = /^[a-z0-9-]*$/.test(stem)
      ? [`${stem}.com`, `${stem}-shop.${tld}`, `${stem}-store.com`, `${stem}.de`, `${stem}-outlet.co.uk`]
      : [`${stem}.com`, `${stem}-2.${tld}`, `${stem}.net`, `${stem}-3.com`];
    domains = [...new Set([own.domain, ...variants.slice(0, int(rng, 1, 3))])];
    creatives = int(rng, 2, 10);
  } else {
    domains = [...new Set(Array.from({ length: int(rng, 5, 60) }, () => poolDomain(Math.floor(rng() * POOL_SIZE))))];
    creatives = int(rng, 5, 30);
  }
  // Most advertisers are active now; some stopped months or years ago.
  const lastDay = rng() < 0.7 ? today - int(rng, 0, 60) : monthsAgo(today, int(rng, 2, 44));
  const firstDay = Math.max(monthsAgo(today, 48), lastDay - int(rng, 30, 1400));
  return { advertiserId: id(2, i), name: own.name, country, domains, creatives, firstDay, lastDay };
}

// ---------------------------------------------------------------------------------------------
// Crawl times in all accepted forms.

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function crawlTime(rng: Rng, today: number): string {
  const utc = new Date((today - int(rng, 0, 90)) * DAY_MS + int(rng, 0, 86_399) * 1000);
  const date = `${utc.getUTCFullYear()}-${pad(utc.getUTCMonth() + 1)}-${pad(utc.getUTCDate())}`;
  const time = `${pad(utc.getUTCHours())}:${pad(utc.getUTCMinutes())}:${pad(utc.getUTCSeconds())}`;
  const form = rng();
  if (form < 0.4) return `${date} ${time}`;
  if (form < 0.6) return `${date}T${time}Z`;
  if (form < 0.7) return `${date}T${time}.${pad(int(rng, 0, 999), 3)}Z`;
  // Same instant written with a local offset.
  const offsetMinutes = pick(rng, [60, 120, 330, -300, -420]);
  const local = new Date(utc.getTime() + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const hh = pad(Math.floor(Math.abs(offsetMinutes) / 60));
  const mm = pad(Math.abs(offsetMinutes) % 60);
  const localText =
    `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}T` +
    `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  return form < 0.85 ? `${localText}${sign}${hh}:${mm}` : `${localText}${sign}${hh}${mm}`;
}

// ---------------------------------------------------------------------------------------------

export function generateDataset(options: DatasetOptions = {}): Dataset {
  const seed = options.seed ?? DEFAULT_SEED;
  const size = options.size ?? DEFAULT_DEMO_SIZE;
  if (!Number.isInteger(seed)) throw new RangeError('seed must be an integer');
  if (!Number.isInteger(size) || size < 0) throw new RangeError('size must be a non-negative integer');
  const today = dayOf(options.today ?? new Date());
  const backgroundName = (options.names ?? plainNames)(seed);
  const background = (i: number) => backgroundIdentifier(seed, i, today, backgroundName);
  const backgroundCount = Math.ceil(Math.max(0, size - FIXTURE_OBSERVATIONS) / MEAN_BACKGROUND_OBSERVATIONS);

  function* observations(): Generator<ObservationRecord> {
    for (const [n, fixture] of fixtureIdentifiers(today).entries()) {
      yield* observationsOf(mulberry32(mix(FIXTURE_SEED, n, 2)), fixture);
    }
    for (let i = 0; i < backgroundCount; i += 1) {
      yield* observationsOf(mulberry32(mix(seed, i, 2)), background(i));
    }
  }

  function* crawls(): Generator<CrawlRecord> {
    const rng = mulberry32(mix(FIXTURE_SEED, 3));
    for (const domain of [
      DEMO.brandDomain,
      DEMO.brandDomain,
      DEMO.singleDomain,
      DEMO.fewDomains[0],
      DEMO.crawledOnlyDomain,
      'initech.com',
    ]) {
      yield { domain: `https://www.${domain}/`, crawled_at: crawlTime(rng, today) };
    }
    for (let j = 0; j < POOL_SIZE; j += 1) {
      const times = Math.floor(rng() * 3); // zero to two crawls
      for (let t = 0; t < times; t += 1) yield { domain: poolDomain(j), crawled_at: crawlTime(rng, today) };
    }
    for (let i = 0; i < backgroundCount; i += 1) {
      const crawlRng = mulberry32(mix(seed, i, 3));
      if (crawlRng() < 0.6) yield { domain: background(i).domains[0], crawled_at: crawlTime(crawlRng, today) };
    }
  }

  function* labels(): Generator<LabelRecord> {
    yield { advertiser_name: DEMO.intermediaryName, advertiser_type: 'agency' };
    yield { advertiser_name: DEMO.secondIntermediaryName, advertiser_type: 'agency' };
    yield { advertiser_name: DEMO.brandName, advertiser_type: 'direct' };
    yield { advertiser_name: DEMO.singleDomainName, advertiser_type: 'direct' };
    yield { advertiser_name: DEMO.renamedName, advertiser_type: 'direct' };
    for (let i = 0; i < backgroundCount; i += 1) {
      if (sharesPreviousName(i)) continue;
      const who = background(i);
      const labelRng = mulberry32(mix(seed, i, 4));
      if (who.domains.length >= 5 && labelRng() < 0.5) yield { advertiser_name: who.name, advertiser_type: 'agency' };
      else if (who.domains.length < 5 && labelRng() < 0.3)
        yield { advertiser_name: who.name, advertiser_type: 'direct' };
    }
  }

  return { seed, size, today: isoDay(today), observations, crawls, labels };
}
