import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/data/client.ts';
import { checkAggregates, ingestObservations } from '../../src/ingest/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { observation, resetData, snapshot, TODAY } from './helpers.ts';

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

const ingest = (records: Record<string, unknown>[], batchSize?: number) =>
  ingestObservations(db.sql, records, { today: TODAY, batchSize });

async function identifier(advertiserId: string) {
  const [row] = await db.sql<{ name: string; country: string }[]>`
    SELECT name, country FROM identifiers WHERE advertiser_id = ${advertiserId}`;
  return row;
}

async function rejectReason(record: Record<string, unknown>): Promise<string | undefined> {
  const summary = await ingest([record]);
  return summary.rejects[0]?.reason;
}

describe('ingest observations: field rules (docs/product-rules.md R10.4–R10.10)', () => {
  it('accepts a valid record and stores it: name as given, country upper-case, landing root domain', async () => {
    const summary = await ingest([observation({ advertiser_name: '  Acme  Outdoor ', country: 'us' })]);
    expect(summary).toEqual({ read: 1, new: 1, updated: 0, unchanged: 0, rejected: 0, rejects: [] });
    const rows = await db.sql`
      SELECT creative_id, to_char(seen_on, 'YYYY-MM-DD') AS seen_on, landing_domain, advertiser_id, advertiser_name,
        country
      FROM observations`;
    expect(rows).toEqual([
      {
        creative_id: 'CR1',
        seen_on: '2024-06-01',
        landing_domain: 'acme-outdoor.com',
        advertiser_id: 'AR1',
        advertiser_name: '  Acme  Outdoor ',
        country: 'US',
      },
    ]);
  });

  it.each([
    ['advertiser_id', undefined],
    ['advertiser_id', null],
    ['advertiser_id', ''],
    ['advertiser_id', '   '],
    ['advertiser_name', undefined],
    ['advertiser_name', null],
    ['advertiser_name', ''],
    ['advertiser_name', ' \t\u00a0'],
    ['country', null],
    ['seen_on', ''],
    ['landing_url', undefined],
    ['creative_id', null],
  ])('null, missing, empty or white-space: %s = %j is "missing <field>"', async (field, value) => {
    const record = observation({ [field]: value });
    if (value === undefined) delete record[field];
    expect(await rejectReason(record)).toBe(`missing ${field}`);
  });

  it.each(['ar123', 'AR', 'AR12a', ' AR1', 'AR1 ', 'A R1', 'AR-1', 'AR١٢', `AR${'1'.repeat(31)}`, 'XX123'])(
    'advertiser_id is AR + 1 to 30 ASCII digits, exact case, no spaces: %j is malformed',
    async (advertiserId) => {
      expect(await rejectReason(observation({ advertiser_id: advertiserId }))).toBe('malformed advertiser_id');
    },
  );

  it('advertiser_id with 1 and with 30 digits is accepted, leading zeros kept', async () => {
    const summary = await ingest([
      observation({ advertiser_id: 'AR0', creative_id: 'C-a' }),
      observation({ advertiser_id: `AR${'0'.repeat(29)}7`, creative_id: 'C-b' }),
    ]);
    expect(summary.new).toBe(2);
    expect(await identifier(`AR${'0'.repeat(29)}7`)).toBeDefined();
  });

  it.each(['USA', 'U', 'U1', 'ÜS', ' US', 'U S'])('country is two ASCII letters: %j is malformed', async (country) => {
    expect(await rejectReason(observation({ country }))).toBe('malformed country');
  });

  it('country is stored upper-case', async () => {
    await ingest([observation({ country: 'gB' })]);
    expect((await identifier('AR1')).country).toBe('GB');
  });

  it.each(['2024/06/01', '2024-6-1', '20240601', '24-06-01', '2024-06-01T00:00:00Z', ' 2024-06-01', '2024-06-01 '])(
    'seen_on must be YYYY-MM-DD: %j is malformed',
    async (seenOn) => {
      expect(await rejectReason(observation({ seen_on: seenOn }))).toBe('malformed seen_on');
    },
  );

  it.each([
    '2023-02-29',
    '2024-02-30',
    '2024-04-31',
    '2024-13-01',
    '2024-00-10',
    '2024-01-00',
    '0000-01-01',
    '1900-02-29',
  ])('seen_on must be a real calendar date: %s is "impossible date seen_on"', async (seenOn) => {
    expect(await rejectReason(observation({ seen_on: seenOn }))).toBe('impossible date seen_on');
  });

  it('seen_on on a leap day is accepted (2024-02-29, 2000-02-29)', async () => {
    const summary = await ingest([observation({ seen_on: '2024-02-29' }), observation({ seen_on: '2000-02-29' })]);
    expect(summary.new).toBe(2);
  });

  it('seen_on not after today (UTC): today is accepted, tomorrow is "future date seen_on"', async () => {
    const lateInTheDay = new Date('2024-06-15T23:59:59Z');
    const summary = await ingestObservations(
      db.sql,
      [observation({ seen_on: '2024-06-15' }), observation({ seen_on: '2024-06-16' })],
      { today: lateInTheDay },
    );
    expect(summary.new).toBe(1);
    expect(summary.rejects).toEqual([{ line: 2, reason: 'future date seen_on' }]);
  });

  it('advertiser_name is at most 512 code points (astral characters count once)', async () => {
    const emoji = '\u{1F3D5}'; // two UTF-16 units, one code point
    const summary = await ingest([
      observation({ creative_id: 'A', advertiser_id: 'AR1', advertiser_name: emoji.repeat(512) }),
      observation({ creative_id: 'B', advertiser_id: 'AR2', advertiser_name: 'x'.repeat(512) }),
      observation({ creative_id: 'C', advertiser_id: 'AR3', advertiser_name: 'x'.repeat(513) }),
      observation({ creative_id: 'D', advertiser_id: 'AR4', advertiser_name: emoji.repeat(513) }),
    ]);
    expect(summary.new).toBe(2);
    expect(summary.rejects).toEqual([
      { line: 3, reason: 'advertiser_name too long' },
      { line: 4, reason: 'advertiser_name too long' },
    ]);
    expect((await identifier('AR1')).name).toBe(emoji.repeat(512));
  });

  it('advertiser_name that PostgreSQL cannot store unchanged (NUL, lone surrogate) is malformed', async () => {
    expect(await rejectReason(observation({ advertiser_name: 'Acme\u0000' }))).toBe('malformed advertiser_name');
    expect(await rejectReason(observation({ advertiser_name: 'Acme \uD83C' }))).toBe('malformed advertiser_name');
  });

  it('advertiser_name is stored byte for byte: no trimming, case folding or Unicode normalization', async () => {
    const composed = 'Caf\u00e9';
    const decomposed = 'Cafe\u0301';
    await ingest([
      observation({ creative_id: 'A', advertiser_id: 'AR1', advertiser_name: composed }),
      observation({ creative_id: 'B', advertiser_id: 'AR2', advertiser_name: decomposed }),
      observation({ creative_id: 'C', advertiser_id: 'AR3', advertiser_name: ' café ' }),
    ]);
    expect((await identifier('AR1')).name).toBe(composed);
    expect((await identifier('AR2')).name).toBe(decomposed);
    expect((await identifier('AR3')).name).toBe(' café ');
  });

  it.each([
    ['localhost'],
    ['http://192.168.0.1/x'],
    ['https://co.uk/'],
    ['brand.con'],
    ['ftp://acme-outdoor.com/'],
    ['not a url'],
  ])('landing_url follows the domain rules: %j has no registrable domain', async (landingUrl) => {
    expect(await rejectReason(observation({ landing_url: landingUrl }))).toBe('landing_url has no registrable domain');
  });

  it('creative_id must be one printable token: white space inside is malformed', async () => {
    expect(await rejectReason(observation({ creative_id: 'CR 1' }))).toBe('malformed creative_id');
    expect(await rejectReason(observation({ creative_id: ' CR1' }))).toBe('malformed creative_id');
  });

  it('a value that is not a string (number, boolean, object) is malformed', async () => {
    expect(await rejectReason(observation({ advertiser_id: 123 }))).toBe('malformed advertiser_id');
    expect(await rejectReason(observation({ country: true }))).toBe('malformed country');
    expect(await rejectReason(observation({ seen_on: {} }))).toBe('malformed seen_on');
  });
});

describe('ingest observations: summary and reject lines', () => {
  it('counts read/new/rejected and lists rejects in input order with 1-based lines', async () => {
    const summary = await ingest(
      [
        observation({ creative_id: 'A' }),
        observation({ creative_id: 'B', country: 'USA' }),
        observation({ creative_id: 'C' }),
        observation({ creative_id: 'D', advertiser_id: 'AR2' }),
        observation({ creative_id: 'A', advertiser_id: 'AR2' }),
        observation({ creative_id: 'E', seen_on: '2099-01-01' }),
      ],
      2,
    );
    expect(summary).toEqual({
      read: 6,
      new: 3,
      updated: 0,
      unchanged: 0,
      rejected: 3,
      rejects: [
        { line: 2, reason: 'malformed country' },
        { line: 5, reason: 'creative already tied to another identifier' },
        { line: 6, reason: 'future date seen_on' },
      ],
    });
  });

  it('a record carrying __line reports that line instead of its position', async () => {
    const summary = await ingest([
      { ...observation({ creative_id: 'A' }), __line: 10 },
      { ...observation({ creative_id: 'B', country: '' }), __line: 12 },
    ]);
    expect(summary.rejects).toEqual([{ line: 12, reason: 'missing country' }]);
  });

  it('accepts an async iterable', async () => {
    async function* records() {
      yield observation({ creative_id: 'A' });
      yield observation({ creative_id: 'B' });
    }
    const summary = await ingestObservations(db.sql, records(), { today: TODAY });
    expect(summary.new).toBe(2);
  });
});

describe('ingest observations: observation identity (creative_id, seen_on, landing root domain)', () => {
  it(
    'a later row with the same identity and another name ' + 'or country is "updated"; an identical one "unchanged"',
    async () => {
      await ingest([observation({ landing_url: 'https://acme-outdoor.com/a' })]);
      const summary = await ingest([
        observation({ landing_url: 'http://shop.acme-outdoor.com/b?x=1' }), // same root domain: same identity
        observation({ advertiser_name: 'Acme Outdoor GmbH' }),
        observation({ advertiser_name: 'Acme Outdoor GmbH' }),
        observation({ advertiser_name: 'Acme Outdoor GmbH', country: 'DE' }),
        observation({ landing_url: 'https://acme-outdoor.de/' }), // another root domain: another identity
        observation({ seen_on: '2024-06-02' }), // another day: another identity
      ]);
      expect(summary).toMatchObject({ read: 6, new: 2, updated: 2, unchanged: 2, rejected: 0 });
      const rows = await db.sql`
      SELECT landing_domain, to_char(seen_on, 'YYYY-MM-DD') AS seen_on, advertiser_name, country
      FROM observations ORDER BY seen_on, landing_domain`;
      expect(rows).toEqual([
        {
          landing_domain: 'acme-outdoor.com',
          seen_on: '2024-06-01',
          advertiser_name: 'Acme Outdoor GmbH',
          country: 'DE',
        },
        { landing_domain: 'acme-outdoor.de', seen_on: '2024-06-01', advertiser_name: 'Acme Outdoor', country: 'US' },
        { landing_domain: 'acme-outdoor.com', seen_on: '2024-06-02', advertiser_name: 'Acme Outdoor', country: 'US' },
      ]);
    },
  );

  it('a name differing only in case or white space is a different name ("updated")', async () => {
    await ingest([observation({ advertiser_name: 'Acme' })]);
    expect((await ingest([observation({ advertiser_name: 'ACME' })])).updated).toBe(1);
    expect((await ingest([observation({ advertiser_name: 'ACME ' })])).updated).toBe(1);
  });

  it('idempotency: loading the same input twice changes nothing (all "unchanged", every table identical)', async () => {
    const input = [
      observation({ creative_id: 'A', seen_on: '2024-05-01' }),
      observation({ creative_id: 'B', advertiser_id: 'AR2', advertiser_name: 'Globex', landing_url: 'globex.de' }),
      observation({ creative_id: 'A', seen_on: '2024-05-02', landing_url: 'acme-outdoor.co.uk' }),
      observation({ creative_id: 'C', advertiser_name: 'Acme Outdoor Ltd', seen_on: '2024-05-02' }),
      observation({ creative_id: 'A', advertiser_id: 'AR2' }), // rejected both times
    ];
    const first = await ingest(input);
    expect(first).toMatchObject({ new: 4, rejected: 1 });
    const before = await snapshot(db.sql);
    const second = await ingest(input);
    expect(second).toMatchObject({ read: 5, new: 0, updated: 0, unchanged: 4, rejected: 1 });
    expect(await snapshot(db.sql)).toEqual(before);
  });

  it('an "unchanged" row does not bump ingest order: re-sending an older name does not make it current', async () => {
    // Two observations of AR1 on its latest day; the later ingested one (B) names the identifier.
    await ingest([
      observation({ creative_id: 'X', advertiser_name: 'Name A' }),
      observation({ creative_id: 'Y', advertiser_name: 'Name B' }),
    ]);
    expect((await identifier('AR1')).name).toBe('Name B');
    const again = await ingest([observation({ creative_id: 'X', advertiser_name: 'Name A' })]);
    expect(again.unchanged).toBe(1);
    expect((await identifier('AR1')).name).toBe('Name B');
  });
});

describe("ingest observations: an identifier's name and country are those of its most recent observation", () => {
  it('latest seen_on wins, whatever the ingest order', async () => {
    await ingest([
      observation({ creative_id: 'A', seen_on: '2024-06-10', advertiser_name: 'New Name', country: 'DE' }),
      observation({ creative_id: 'B', seen_on: '2024-06-01', advertiser_name: 'Old Name', country: 'FR' }),
    ]);
    expect(await identifier('AR1')).toEqual({ name: 'New Name', country: 'DE' });
    await ingest([
      observation({ creative_id: 'C', seen_on: '2024-05-01', advertiser_name: 'Older Name', country: 'GB' }),
    ]);
    expect(await identifier('AR1')).toEqual({ name: 'New Name', country: 'DE' });
  });

  it('ties on seen_on: the latest ingested wins, later in the file', async () => {
    await ingest([
      observation({ creative_id: 'A', advertiser_name: 'First' }),
      observation({ creative_id: 'B', advertiser_name: 'Second', country: 'CA' }),
    ]);
    expect(await identifier('AR1')).toEqual({ name: 'Second', country: 'CA' });
  });

  it('ties on seen_on: a later load beats an earlier one, and an update re-ingests the observation', async () => {
    await ingest([
      observation({ creative_id: 'A', advertiser_name: 'First' }),
      observation({ creative_id: 'B', advertiser_name: 'Second' }),
    ]);
    await ingest([observation({ creative_id: 'C', advertiser_name: 'Third' })]);
    expect((await identifier('AR1')).name).toBe('Third');
    const summary = await ingest([observation({ creative_id: 'A', advertiser_name: 'First, renamed' })]);
    expect(summary.updated).toBe(1);
    expect((await identifier('AR1')).name).toBe('First, renamed');
  });

  it('the result does not depend on the batch size (file order decides across batches)', async () => {
    const input = [
      observation({ creative_id: 'A', advertiser_name: 'One' }),
      observation({ creative_id: 'B', advertiser_name: 'Two' }),
      observation({ creative_id: 'A', advertiser_name: 'Three' }),
      observation({ creative_id: 'C', advertiser_id: 'AR2', advertiser_name: 'Other' }),
      observation({ creative_id: 'B', advertiser_name: 'Two' }),
      observation({ creative_id: 'C', advertiser_id: 'AR1' }),
    ];
    const results = [];
    for (const batchSize of [1, 2, 3, 5000]) {
      await resetData(db.sql);
      const summary = await ingest(input, batchSize);
      results.push({ summary, ar1: await identifier('AR1'), ar2: await identifier('AR2') });
    }
    for (const result of results) expect(result).toEqual(results[0]);
    expect(results[0].ar1.name).toBe('Three');
    expect(results[0].summary).toMatchObject({ new: 3, updated: 1, unchanged: 1, rejected: 1 });
  });
});

describe('ingest observations: a creative belongs to the identifier of the first accepted row mentioning it', () => {
  it(
    'a row tying a known creative to another identifier ' + 'is rejected, in the same load and in later loads',
    async () => {
      const first = await ingest([
        observation({ creative_id: 'C1', advertiser_id: 'AR1' }),
        observation({ creative_id: 'C1', advertiser_id: 'AR2', seen_on: '2024-06-02' }),
      ]);
      expect(first.rejects).toEqual([{ line: 2, reason: 'creative already tied to another identifier' }]);
      const later = await ingest([observation({ creative_id: 'C1', advertiser_id: 'AR2', seen_on: '2024-06-03' })]);
      expect(later.rejects).toEqual([{ line: 1, reason: 'creative already tied to another identifier' }]);
      expect(await db.sql`SELECT DISTINCT creative_id, advertiser_id FROM observations`).toEqual([
        { creative_id: 'C1', advertiser_id: 'AR1' },
      ]);
      expect(await identifier('AR2')).toBeUndefined();
    },
  );

  it('a rejected row establishes nothing: the first ACCEPTED row decides the owner', async () => {
    const summary = await ingest([
      observation({ creative_id: 'C1', advertiser_id: 'AR2', country: 'nope' }),
      observation({ creative_id: 'C1', advertiser_id: 'AR1' }),
      observation({ creative_id: 'C1', advertiser_id: 'AR2' }),
    ]);
    expect(summary.rejects).toEqual([
      { line: 1, reason: 'malformed country' },
      { line: 3, reason: 'creative already tied to another identifier' },
    ]);
    expect(await db.sql`SELECT DISTINCT advertiser_id FROM observations`).toEqual([{ advertiser_id: 'AR1' }]);
  });

  it('ownership is decided in file order across batches', async () => {
    const summary = await ingest(
      [
        observation({ creative_id: 'C1', advertiser_id: 'AR9' }),
        observation({ creative_id: 'C2', advertiser_id: 'AR1' }),
        observation({ creative_id: 'C2', advertiser_id: 'AR9' }),
        observation({ creative_id: 'C1', advertiser_id: 'AR1' }),
      ],
      1,
    );
    expect(summary.rejects.map((r) => r.line)).toEqual([3, 4]);
  });
});

describe('ingest observations: aggregates are exactly consistent with the observations after every call', () => {
  it('after loads with updates, renames, rejects and several batch sizes', async () => {
    const days = ['2021-01-31', '2023-12-31', '2024-01-01', '2024-02-29', '2024-06-15'];
    const records: Record<string, unknown>[] = [];
    for (let i = 0; i < 200; i += 1) {
      records.push(
        observation({
          creative_id: `C${i % 37}`,
          advertiser_id: `AR${i % 5}`,
          advertiser_name: `Name ${i % 3}`,
          country: ['US', 'DE', 'GB'][i % 3],
          seen_on: days[i % days.length],
          landing_url: `https://www.site${i % 11}.co.uk/p${i}`,
        }),
      );
    }
    for (const batchSize of [7, 64, 5000]) {
      await ingest(records.slice(0, 120), batchSize);
      expect(await checkAggregates(db.sql)).toEqual([]);
      await ingest(records.slice(80), batchSize);
      expect(await checkAggregates(db.sql)).toEqual([]);
    }
  });
});

describe(
  'ingest observations: a creative counts once per landing ' + 'domain and per month, however its observations arrive',
  () => {
    it(
      'seen again on a known domain or in a known month, in ' + 'the same batch or a later one, it adds nothing there',
      async () => {
        const rows = [
          observation({ creative_id: 'C1', seen_on: '2024-05-01', landing_url: 'https://a.com/1' }),
          observation({ creative_id: 'C1', seen_on: '2024-05-02', landing_url: 'https://a.com/2' }),
          observation({ creative_id: 'C2', seen_on: '2024-05-03', landing_url: 'https://b.com/' }),
          observation({ creative_id: 'C1', seen_on: '2024-05-31', landing_url: 'https://www.a.com/3' }),
          observation({ creative_id: 'C1', seen_on: '2024-06-01', landing_url: 'https://b.com/x' }),
          observation({ creative_id: 'C2', seen_on: '2024-06-02', landing_url: 'https://b.com/y' }),
        ];
        for (const batchSize of [1, 2, 6]) {
          await resetData(db.sql);
          await ingest(rows.slice(0, 3), batchSize);
          await ingest(rows.slice(3), batchSize);
          expect(await checkAggregates(db.sql)).toEqual([]);
          const domains = await db.sql`
        SELECT landing_domain, creatives FROM identifier_domains WHERE advertiser_id = 'AR1' ORDER BY 1`;
          expect(domains).toEqual([
            { landing_domain: 'a.com', creatives: 1 },
            { landing_domain: 'b.com', creatives: 2 },
          ]);
          const months = await db.sql`
        SELECT to_char(month, 'YYYY-MM') AS month, creatives FROM identifier_months WHERE advertiser_id = 'AR1'
          ORDER BY 1`;
          expect(months).toEqual([
            { month: '2024-05', creatives: 2 },
            { month: '2024-06', creatives: 2 },
          ]);
          const [{ creatives, landing_domains }] = await db.sql`
        SELECT creatives, landing_domains FROM identifiers WHERE advertiser_id = 'AR1'`;
          expect({ creatives, landing_domains }).toEqual({ creatives: 2, landing_domains: 2 });
        }
      },
    );
  },
);

describe('ingest observations: concurrent loads', () => {
  it('are applied batch by batch under one lock: one owner per creative, aggregates exact', async () => {
    const load = (advertiserId: string) =>
      Array.from({ length: 300 }, (_, i) =>
        observation({
          creative_id: `C${i % 50}`,
          advertiser_id: advertiserId,
          seen_on: `2024-05-${String((i % 28) + 1).padStart(2, '0')}`,
          landing_url: `site${i % 7}.com`,
        }),
      );
    const [a, b] = await Promise.all([ingest(load('AR1'), 10), ingest(load('AR2'), 10)]);
    expect(await checkAggregates(db.sql)).toEqual([]);
    const [{ creatives }] = await db.sql`SELECT count(DISTINCT creative_id)::integer AS creatives FROM observations`;
    expect(creatives).toBe(50);
    // Every creative went to exactly one of the two loads; the other load rejected its rows.
    expect(a.new + b.new).toBe(300);
    expect(a.rejected + b.rejected).toBe(300);
  });
});

describe('ingest observations: loads on a small pool', () => {
  it('two loads at once on a pool of two connections both complete: neither waits for ever for a second', async () => {
    const small = connect(db.url, 2);
    try {
      const load = (advertiserId: string) =>
        ingestObservations(
          small,
          Array.from({ length: 3_000 }, (_, i) =>
            observation({ creative_id: `${advertiserId}-${i}`, advertiser_id: advertiserId }),
          ),
          { today: TODAY, batchSize: 1_000 },
        );
      const [a, b] = await Promise.all([load('AR1'), load('AR2')]);
      expect([a.new, b.new]).toEqual([3_000, 3_000]);
      expect(await checkAggregates(db.sql)).toEqual([]);
    } finally {
      await small.end();
    }
  });
});

describe('ingest observations: a load that fails part way', () => {
  it('keeps the batches committed before the failure, leaves no transaction open; run again, completes', async () => {
    // Batches of 2,000 rows send their text while they are read: the second one is being copied
    // on the load's other connection when the first one's reject report fails.
    const records = Array.from({ length: 6_000 }, (_, i) =>
      observation({ creative_id: `CR-${i}`, country: i === 10 ? 'USA' : 'US' }),
    );
    const failing = ingestObservations(db.sql, records, {
      today: TODAY,
      batchSize: 2_000,
      onReject: () => {
        throw new Error('the rejects file cannot be written');
      },
    });
    await expect(failing).rejects.toThrow('the rejects file cannot be written');

    const [{ loaded }] = await db.sql`SELECT count(*)::integer AS loaded FROM observations`;
    expect(loaded).toBe(2_000);
    const open = await db.sql`
      SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`;
    expect(open).toEqual([]);

    const again = await ingest(records, 2_000);
    expect(again).toMatchObject({ read: 6_000, new: 3_999, unchanged: 2_000, rejected: 1 });
    expect(await checkAggregates(db.sql)).toEqual([]);
  });
});
