// @module-tag database-free
import { describe, expect, it } from 'vitest';
import type { OpenAPIV31 } from '../../src/contract/openapi-types.ts';
import { maxItemsOf, PROFILE_MINIMUMS, profileOf, readProfileMinimums } from '../../src/contract/response-schemas.ts';
import { BRAND_BID_CAP, HISTORY_MONTHS, LANDING_DOMAINS_CAP } from '../../src/data/lookups.ts';
import { spec } from '../support/contract.ts';

/**
 * The rules of the response schemas the service applies (the caps of the capped lists, the
 * landing-domain counts of each profile) are read from the contract at start-up; the prose of
 * openapi.yaml that repeats them for people is pinned to them here.
 */

const schemas = spec.components.schemas;
const operation = (operationId: string) =>
  Object.values<any>(spec.paths)
    .flatMap((item) => Object.values<any>(item))
    .find((op) => op.operationId === operationId);
const oneLine = (text: string) => text.replace(/\s+/g, ' ');

describe("the caps are the response schemas' maxItems", () => {
  it('the lookups cap each list at its maxItems in openapi.yaml', () => {
    expect(LANDING_DOMAINS_CAP).toBe(schemas.AdvertiserLandingDomains.properties.landing_domains.maxItems);
    expect(BRAND_BID_CAP).toBe(schemas.BrandBidReport.properties.advertisers.maxItems);
    expect(HISTORY_MONTHS).toBe(schemas.AdvertiserHistory.properties.months.maxItems);
  });

  it('the descriptions of the schemas and the operations state the same caps', () => {
    const landing = schemas.AdvertiserLandingDomains.properties;
    expect(landing.landing_domains.description).toContain(`At most ${LANDING_DOMAINS_CAP} entries`);
    expect(landing.landing_domain_count.description).toContain(`cap of ${LANDING_DOMAINS_CAP}`);
    expect(landing.truncated.description).toContain(`cut at ${LANDING_DOMAINS_CAP}`);
    expect(oneLine(operation('getAdvertiserLandingDomains').description)).toContain(
      `At most ${LANDING_DOMAINS_CAP} entries`,
    );

    const brandBid = schemas.BrandBidReport.properties;
    expect(brandBid.advertisers.description).toContain(`At most ${BRAND_BID_CAP} rows`);
    expect(brandBid.advertiser_count.description).toContain(`not capped at ${BRAND_BID_CAP}`);
    expect(oneLine(operation('getBrandBidReport').description)).toContain(`At most ${BRAND_BID_CAP} rows`);

    expect(schemas.AdvertiserHistory.properties.months.description).toContain(`at most ${HISTORY_MONTHS}`);
    const history = oneLine(operation('getAdvertiserHistory').description);
    expect(history).toContain(`the current month and the ${HISTORY_MONTHS - 1} before it`);
    expect(history).toContain(`${HISTORY_MONTHS} zero months`);
  });

  it('a cap missing from the contract stops the start with an error naming it', () => {
    const document = {
      openapi: '3.1.0',
      info: {},
      paths: {},
      components: { schemas: { List: { properties: { items: { type: 'array' } } } } },
    } as OpenAPIV31;
    expect(() => maxItemsOf('List', 'items', document)).toThrow(
      'openapi.yaml: components/schemas/List/properties/items needs a positive integer maxItems',
    );
    expect(() => maxItemsOf('Nothing', 'items', document)).toThrow(
      'openapi.yaml: components/schemas/Nothing is missing',
    );
  });
});

describe("the profiles are the Profile schema's x-minimum-landing-domains", () => {
  /** Each profile's range of landing domains, as the descriptions say it: [profile, from, to or null]. */
  const ranges = PROFILE_MINIMUMS.map(({ profile, minimum }, i) => [
    profile,
    minimum,
    i + 1 < PROFILE_MINIMUMS.length ? PROFILE_MINIMUMS[i + 1].minimum - 1 : null,
  ]);
  const profiles: string[] = schemas.Profile.enum;

  it('every profile of the enum has its minimum, in order', () => {
    expect(PROFILE_MINIMUMS.map(({ profile }) => profile)).toEqual(profiles);
    expect(Object.fromEntries(PROFILE_MINIMUMS.map(({ profile, minimum }) => [profile, minimum]))).toEqual(
      schemas.Profile['x-minimum-landing-domains'],
    );
  });

  it('each count gets the profile whose range holds it', () => {
    for (const [profile, from, to] of ranges) {
      expect(profileOf(from as number)).toBe(profile);
      expect(profileOf((to ?? (from as number) + 1000) as number)).toBe(profile);
    }
  });

  it('the Profile description and the brand-bid operation state the same ranges', () => {
    const range = (from: string, to?: string, more?: string) => [
      Number(from),
      to !== undefined ? Number(to) : more ? null : Number(from),
    ];
    const stated = (
      text: string,
      pattern: RegExp,
      order: (m: RegExpMatchArray) => [string, string, string?, string?],
    ) =>
      [...oneLine(text).matchAll(pattern)]
        .map(order)
        .filter(([profile]) => profiles.includes(profile))
        .map(([profile, from, to, more]) => [profile, ...range(from, to, more)]);
    // "`single_domain` for 1 landing domain, `few_domains` for 2 to 4, `multi_domain_intermediary` for 5 or more"
    expect(
      stated(schemas.Profile.description, /`(\w+)` for (\d+)(?: to (\d+))?( or more)?/g, (m) => [
        m[1],
        m[2],
        m[3],
        m[4],
      ]),
    ).toEqual(ranges);
    // "1 `single_domain`, 2 to 4 `few_domains`, 5 or more `multi_domain_intermediary`"
    expect(
      stated(operation('getBrandBidReport').description, /(\d+)(?: to (\d+))?( or more)? `(\w+)`/g, (m) => [
        m[4],
        m[1],
        m[2],
        m[3],
      ]),
    ).toEqual(ranges);
  });

  it('a contract whose profiles are incomplete, out of order or not counts stops the start', () => {
    const withProfile = (minimums: unknown) =>
      ({
        openapi: '3.1.0',
        info: {},
        paths: {},
        components: { schemas: { Profile: { enum: ['one', 'many'], 'x-minimum-landing-domains': minimums } } },
      }) as OpenAPIV31;
    expect(readProfileMinimums(withProfile({ one: 1, many: 3 }))).toEqual([
      { profile: 'one', minimum: 1 },
      { profile: 'many', minimum: 3 },
    ]);
    expect(() => readProfileMinimums(withProfile(undefined))).toThrow(
      'components/schemas/Profile needs x-minimum-landing-domains',
    );
    expect(() => readProfileMinimums(withProfile({ one: 1 }))).toThrow(
      'must name every profile of the enum, in its order (one, many)',
    );
    expect(() => readProfileMinimums(withProfile({ many: 3, one: 1 }))).toThrow('must name every profile of the enum');
    expect(() => readProfileMinimums(withProfile({ one: 2, many: 2 }))).toThrow(
      'x-minimum-landing-domains.many must be an integer of at least 1',
    );
    expect(() => readProfileMinimums(withProfile({ one: 0, many: 2 }))).toThrow(
      'x-minimum-landing-domains.one must be an integer of at least 1',
    );
  });
});
