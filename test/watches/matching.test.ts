import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/data/accounts.ts';
import { connect, type Sql } from '../../src/data/client.ts';
import { SANDBOX_SEARCH_PATH } from '../../src/data/sandbox.ts';
import { ingestObservations } from '../../src/ingest/index.ts';
import { observation, resetData, TODAY } from '../ingest/helpers.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { foundEvents, insertWatch } from '../support/watches.ts';

let db: TestDatabase;
let sandbox: Sql;
let accountId: number;
beforeAll(async () => {
  db = await createTestDatabase();
  sandbox = connect(db.url, 2, { searchPath: SANDBOX_SEARCH_PATH });
  accountId = (await createAccount(db.sql, { email: 'brand@example.com' })).id;
});
afterAll(async () => {
  await sandbox?.end();
  await db.drop();
});
beforeEach(async () => {
  await resetData(db.sql);
  await db.sql`TRUNCATE public.watch_events, public.watch_deliveries, public.watch_digests, public.watches`;
});

const ingest = (records: Record<string, unknown>[], batchSize?: number, sql: Sql = db.sql) =>
  ingestObservations(sql, records, { today: TODAY, batchSize });

const LOAD = [
  observation({ creative_id: 'CR1', advertiser_id: 'AR1', landing_url: 'https://acme-outdoor.com/a' }),
  observation({ creative_id: 'CR2', advertiser_id: 'AR1', landing_url: 'https://shop.example.com/b' }),
  observation({
    creative_id: 'CR3',
    advertiser_id: 'AR2',
    advertiser_name: 'Tent Deals',
    landing_url: 'https://www.acme-outdoor.com/c',
    seen_on: '2024-06-03',
  }),
  observation({
    creative_id: 'CR4',
    advertiser_id: 'AR2',
    advertiser_name: 'Tent Deals',
    landing_url: 'https://x.org',
  }),
  // A second creative on a pair already in the batch: still one change.
  observation({ creative_id: 'CR5', advertiser_id: 'AR1', landing_url: 'https://acme-outdoor.com/z' }),
];

async function watchBoth() {
  const domain = await insertWatch(db.sql, { accountId, kind: 'domain', target: 'acme-outdoor.com' });
  const advertiser = await insertWatch(db.sql, { accountId, kind: 'advertiser', target: 'Acme Outdoor' });
  return { domain: domain.id, advertiser: advertiser.id };
}

describe('brand watch: matching at ingest (docs/product-rules.md R19.20)', () => {
  it('finds each new identifier on a watched domain and each new domain of a watched advertiser, once', async () => {
    const { domain, advertiser } = await watchBoth();
    await ingest(LOAD);
    const expected = [
      { watch_id: domain, advertiser_id: 'AR1', landing_domain: 'acme-outdoor.com', advertiser: 'Acme Outdoor' },
      { watch_id: domain, advertiser_id: 'AR2', landing_domain: 'acme-outdoor.com', advertiser: 'Tent Deals' },
      { watch_id: advertiser, advertiser_id: 'AR1', landing_domain: 'acme-outdoor.com', advertiser: 'Acme Outdoor' },
      { watch_id: advertiser, advertiser_id: 'AR1', landing_domain: 'example.com', advertiser: 'Acme Outdoor' },
    ].sort((a, b) =>
      `${a.watch_id}${a.advertiser_id}${a.landing_domain}`.localeCompare(
        `${b.watch_id}${b.advertiser_id}${b.landing_domain}`,
        'en',
      ),
    );
    const events = await foundEvents(db.sql);
    expect(
      events.map(({ watch_id, advertiser_id, landing_domain, advertiser }) => ({
        watch_id,
        advertiser_id,
        landing_domain,
        advertiser,
      })),
    ).toEqual(expect.arrayContaining(expected));
    expect(events).toHaveLength(4);
    const ar2 = events.find((e) => e.advertiser_id === 'AR2');
    expect(ar2).toMatchObject({ first_seen: '2024-06-03', landing_domain_count: 2 });

    // The same load again changes nothing, so it finds nothing new.
    await ingest(LOAD);
    expect(await foundEvents(db.sql)).toEqual(events);
    // A later load with a known pair and a new one: only the new one.
    await ingest([
      observation({
        creative_id: 'CR6',
        advertiser_id: 'AR2',
        advertiser_name: 'Tent Deals',
        landing_url: 'https://acme-outdoor.com/new',
      }),
      observation({
        creative_id: 'CR7',
        advertiser_id: 'AR3',
        advertiser_name: 'Newcomer',
        landing_url: 'https://acme-outdoor.com/q',
      }),
    ]);
    const after = await foundEvents(db.sql);
    expect(after).toHaveLength(5);
    expect(after.filter((e) => e.advertiser_id === 'AR3')).toMatchObject([
      { watch_id: domain, landing_domain_count: 1 },
    ]);
  });

  it('finds the same changes in batches of one as in one batch', async () => {
    await watchBoth();
    await ingest(LOAD);
    const whole = await foundEvents(db.sql);
    await resetData(db.sql);
    await db.sql`TRUNCATE public.watch_events, public.watch_deliveries, public.watch_digests`;
    await ingest(LOAD, 1);
    // The footprint is the identifier's when the change was found: smaller in an earlier batch.
    const changes = (events: Awaited<ReturnType<typeof foundEvents>>) =>
      events.map(({ landing_domain_count: _, ...change }) => change);
    expect(changes(await foundEvents(db.sql))).toEqual(changes(whole));
  });

  it('matches an advertiser watch on the name the identifier carries after the load (a rename)', async () => {
    const watch = await insertWatch(db.sql, { accountId, kind: 'advertiser', target: 'Acme Renamed' });
    await ingest([observation({ creative_id: 'CR1', advertiser_id: 'AR1', landing_url: 'https://one.com' })]);
    expect(await foundEvents(db.sql)).toEqual([]);
    await ingest([
      observation({
        creative_id: 'CR2',
        advertiser_id: 'AR1',
        advertiser_name: 'Acme Renamed',
        seen_on: '2024-06-10',
        landing_url: 'https://two.com',
      }),
    ]);
    // The pair already known (one.com) is no news; the new one is, under the new name.
    expect(await foundEvents(db.sql)).toMatchObject([
      { watch_id: watch.id, advertiser_id: 'AR1', advertiser: 'Acme Renamed', landing_domain: 'two.com' },
    ]);
  });

  it('matches sandbox loads to sandbox watches only, and a deleted watch to nothing', async () => {
    await db.sql`TRUNCATE sandbox.observations, sandbox.identifiers, sandbox.identifier_domains,
      sandbox.identifier_months, sandbox.identifier_month_domains, sandbox.landing_domain_stats`;
    const live = await insertWatch(db.sql, { accountId, kind: 'domain', target: 'acme-outdoor.com' });
    const test = await insertWatch(db.sql, { accountId, kind: 'domain', target: 'acme-outdoor.com', sandbox: true });
    const gone = await insertWatch(db.sql, { accountId, kind: 'advertiser', target: 'Acme Outdoor' });
    await db.sql`UPDATE public.watches SET deleted_at = now() WHERE id = ${gone.id}`;

    await ingest(LOAD.slice(0, 1), undefined, sandbox);
    expect((await foundEvents(db.sql)).map((e) => e.watch_id)).toEqual([test.id]);
    await ingest(LOAD.slice(0, 1));
    expect((await foundEvents(db.sql)).map((e) => e.watch_id).sort()).toEqual([live.id, test.id].sort());
  });
});
