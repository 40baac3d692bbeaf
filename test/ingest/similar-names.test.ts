import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_KEY_VERSION } from '../../src/contract/search-key.ts';
import { similarDomains, similarNames } from '../../src/data/search.ts';
import { checkAggregates, ingestObservations } from '../../src/ingest/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { observation, resetData, TODAY } from './helpers.ts';

/**
 * The names and domain stems the "did you mean" and the search's similar branch read
 * (docs/product-rules.md §15) are kept by ingest's own writes, whatever the batches.
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

const names = async () =>
  (await db.sql<{ name: string }[]>`SELECT name FROM advertiser_names ORDER BY name`).map((row) => row.name);

describe('the names and domain stems similar matches are found in', () => {
  it('follow renames: a name no identifier carries any more is no longer suggested', async () => {
    await resetData(db.sql);
    const load = (records: Record<string, unknown>[]) => ingestObservations(db.sql, records, { today: TODAY });
    await load([
      observation({ creative_id: 'C1', advertiser_id: 'AR1', advertiser_name: 'Harbor Outdoor' }),
      observation({ creative_id: 'C2', advertiser_id: 'AR2', advertiser_name: 'Harbor Outdoor' }),
      observation({ creative_id: 'C3', advertiser_id: 'AR3', advertiser_name: 'Redwood Tea' }),
    ]);
    expect(await names()).toEqual(['Harbor Outdoor', 'Redwood Tea']);
    expect(await similarNames(db.sql, 'Redwod Tea')).toEqual(['Redwood Tea']);

    // A later observation renames AR3, and AR1 but not AR2: one name goes, one stays, one comes.
    await load([
      observation({
        creative_id: 'C3',
        advertiser_id: 'AR3',
        advertiser_name: 'Redwood Tea Co',
        seen_on: '2024-06-10',
      }),
      observation({
        creative_id: 'C1',
        advertiser_id: 'AR1',
        advertiser_name: 'Harbour Outdoor',
        seen_on: '2024-06-10',
      }),
    ]);
    expect(await names()).toEqual(['Harbor Outdoor', 'Harbour Outdoor', 'Redwood Tea Co']);
    expect(await similarNames(db.sql, 'Redwod Tea')).toEqual(['Redwood Tea Co']);
    expect(await checkAggregates(db.sql)).toEqual([]);
  });

  it("keep each landing domain's first label once, and suggest its domains nearest first", async () => {
    await resetData(db.sql);
    await ingestObservations(
      db.sql,
      ['acme-outdoor.com', 'acme-outdoor.de', 'acme-outdoor.co.uk', 'globex.com'].map((domain, i) =>
        observation({ creative_id: `C${i}`, landing_url: `https://${domain}/` }),
      ),
      { today: TODAY },
    );
    const stems = await db.sql<{ stem: string }[]>`SELECT stem FROM landing_domain_stems ORDER BY stem`;
    expect(stems.map((row) => row.stem)).toEqual(['acme-outdoor', 'globex']);
    expect(await similarDomains(db.sql, 'acme-outdor.de')).toEqual([
      'acme-outdoor.de',
      'acme-outdoor.com',
      'acme-outdoor.co.uk',
    ]);
    expect(await checkAggregates(db.sql)).toEqual([]);
  });

  it('checkAggregates reports a name or a stem the triggers would not have kept', async () => {
    await db.sql`
      INSERT INTO advertiser_names (name, search_key, search_tokens, key_version)
      VALUES ('Nobody Else Ltd', 'nobody else ltd', ARRAY['nobody', 'else', 'ltd'], ${SEARCH_KEY_VERSION})`;
    await db.sql`DELETE FROM landing_domain_stems WHERE stem = 'globex'`;
    expect(await checkAggregates(db.sql)).toEqual([
      'advertiser_names: 0 row(s) missing or wrong, 1 row(s) extra or wrong',
      'landing_domain_stems: 1 row(s) missing or wrong, 0 row(s) extra or wrong',
    ]);
  });

  it('a name or domain label exactly at a band boundary (0.45) is suggested before less similar ones', async () => {
    await resetData(db.sql);
    // Trigram similarities to the typos: 0.45, 0.40 and 0.30; for the domains' labels 0.45, 0.44, 0.41.
    const names = ['Harbor Lights', 'Aarbor Lamps', 'Harbour Lights'];
    const domains = ['lighthousemedia.com', 'lighthosting.com', 'lighthouse.com'];
    await ingestObservations(
      db.sql,
      names.map((name, i) =>
        observation({
          creative_id: `C${i}`,
          advertiser_id: `AR${i}`,
          advertiser_name: name,
          landing_url: `https://${domains[i]}/`,
        }),
      ),
      { today: TODAY },
    );
    expect(await similarNames(db.sql, 'Aarbor Lighets')).toEqual(names);
    expect(await similarDomains(db.sql, 'lighthosemea.com')).toEqual(domains);
  });

  it('at the cut, equally similar names are taken in key order, not upper case first', async () => {
    await resetData(db.sql);
    const names = ['ACME TOOL X', 'ACME TOOL Y', ...['a', 'b', 'c', 'd', 'e'].map((letter) => `acme tool ${letter}`)];
    await ingestObservations(
      db.sql,
      names.map((name, i) => observation({ creative_id: `C${i}`, advertiser_id: `AR${i}`, advertiser_name: name })),
      { today: TODAY },
    );
    expect(await similarNames(db.sql, 'Acme Tol')).toEqual([
      'acme tool a',
      'acme tool b',
      'acme tool c',
      'acme tool d',
      'acme tool e',
    ]);
  });

  it('in every script: a misspelled name finds the name, scripts without spaces too', async () => {
    await resetData(db.sql);
    const names = [
      'Сбербанк России',
      '東京ガス株式会社',
      'ธนาคารกรุงเทพ',
      '(주)삼성전자',
      'شركة الاتصالات السعودية',
      'Ελληνικά Τρόφιμα Α.Ε.',
      'בנק לאומי',
      'टाटा मोटर्स',
      '中国银行股份有限公司',
    ];
    await ingestObservations(
      db.sql,
      names.map((name, i) => observation({ creative_id: `C${i}`, advertiser_id: `AR${i}`, advertiser_name: name })),
      { today: TODAY },
    );
    for (const [typo, name] of [
      ['Сбербанк Росии', 'Сбербанк России'],
      ['東京ガス株式會社', '東京ガス株式会社'],
      ['ธนาคารกรุเทพ', 'ธนาคารกรุงเทพ'],
      ['(주)삼성젼자', '(주)삼성전자'],
      ['شركة الاتصلات السعودية', 'شركة الاتصالات السعودية'],
      ['Ελληνικα Τροφημα', 'Ελληνικά Τρόφιμα Α.Ε.'],
      ['בנק לאמי', 'בנק לאומי'],
      ['टाटा मोटरस', 'टाटा मोटर्स'],
      ['中国银行有限公司', '中国银行股份有限公司'],
    ]) {
      expect([typo, await similarNames(db.sql, typo)]).toEqual([typo, [name]]);
    }
    expect(await checkAggregates(db.sql)).toEqual([]);
  });

  it('one edit away, joined or split words find the name; a common word does not crowd out a rare one', async () => {
    await resetData(db.sql);
    // 1,200 names share `Holdings`, more than the did-you-mean reads of one token's names.
    const crowd = Array.from({ length: 1_200 }, (_, i) => `Company ${i} Holdings`);
    const names = ['Acme Outdoor', 'Zamek', 'Quillfeather Holdings', ...crowd];
    await ingestObservations(
      db.sql,
      names.map((name, i) => observation({ creative_id: `C${i}`, advertiser_id: `AR${i}`, advertiser_name: name })),
      { today: TODAY },
    );
    expect(await similarNames(db.sql, 'Zamke')).toEqual(['Zamek']);
    expect((await similarNames(db.sql, 'acmeoutdoor'))[0]).toBe('Acme Outdoor');
    expect((await similarNames(db.sql, 'Acme Out Door'))[0]).toBe('Acme Outdoor');
    // The rare word, misspelled, leads; the 1,200 names of `Holdings` are not what is compared.
    expect((await similarNames(db.sql, 'Quilfeather Holdings'))[0]).toBe('Quillfeather Holdings');
    // With nothing rarer, the common word's names are the candidates: the first 1,000 of them.
    expect(await similarNames(db.sql, 'Holdings')).toHaveLength(5);
  });

  it('when the rarest word is in over 1,000 names, names that also have another word are compared', async () => {
    await resetData(db.sql);
    const load = (names: string[], from: number) =>
      ingestObservations(
        db.sql,
        names.map((name, i) =>
          observation({ creative_id: `C${from + i}`, advertiser_id: `AR${from + i}`, advertiser_name: name }),
        ),
        { today: TODAY },
      );
    // `holdings` and `trading` are each in over 1,000 names; only one name, loaded last, has both:
    // the first 1,000 names of either word, in key order or in the order they were stored, lack it.
    await load(
      [
        ...Array.from({ length: 1_500 }, (_, i) => `Holdings ${i}`),
        ...Array.from({ length: 1_500 }, (_, i) => `Trading ${i}`),
      ],
      0,
    );
    await load(['Trading Holdings'], 3_000);
    expect((await similarNames(db.sql, 'Tradng Holdings'))[0]).toBe('Trading Holdings');
  });

  it('a word some name has is taken as written, not crowded out by the words one edit from it', async () => {
    await resetData(db.sql);
    // 20 words one edit from `준성`, each in 55 names: 1,100 names, rarer each than `준성` or `관심`.
    const neighbours = [...'가나다라마바사아자차'].flatMap((syllable) => [`${syllable}성`, `준${syllable}`]);
    const names = [
      ...neighbours.flatMap((word) => Array.from({ length: 55 }, (_, i) => `${word} ${i}`)),
      ...Array.from({ length: 60 }, (_, i) => `준성 ${i}`),
      ...Array.from({ length: 60 }, (_, i) => `관심 ${i}`),
      '관심 준성',
    ];
    await ingestObservations(
      db.sql,
      names.map((name, i) => observation({ creative_id: `C${i}`, advertiser_id: `AR${i}`, advertiser_name: name })),
      { today: TODAY },
    );
    expect((await similarNames(db.sql, '준성 관심'))[0]).toBe('관심 준성');
  });

  it('a legal form added to a name finds the name first, not the names that share only the form', async () => {
    await resetData(db.sql);
    // 60 names with `GmbH`: a word in at least 50 names (and one in 200) is common.
    const crowd = Array.from({ length: 60 }, (_, i) => `Company ${i} GmbH`);
    const names = ['Quillfeather', 'Quillfeather Bau GmbH', '東京ガス', '東京ガス電気有限会社', ...crowd];
    await ingestObservations(
      db.sql,
      names.map((name, i) => observation({ creative_id: `C${i}`, advertiser_id: `AR${i}`, advertiser_name: name })),
      { today: TODAY },
    );
    // Compared without `gmbh` too, at nine tenths: `Quillfeather` is 0.9 similar, the Bau GmbH less.
    expect((await similarNames(db.sql, 'Quillfeather GmbH')).slice(0, 2)).toEqual([
      'Quillfeather',
      'Quillfeather Bau GmbH',
    ]);
    // A word in fewer names is no legal form: the query is compared whole only.
    expect((await similarNames(db.sql, 'Quillfeather Bau'))[0]).toBe('Quillfeather Bau GmbH');
  });

  it("the tokens follow the names: a renamed name's tokens leave, a new key version writes them again", async () => {
    await resetData(db.sql);
    const load = (records: Record<string, unknown>[]) => ingestObservations(db.sql, records, { today: TODAY });
    await load([observation({ creative_id: 'C1', advertiser_id: 'AR1', advertiser_name: 'Redwood Tea' })]);
    const tokens = async () =>
      (
        await db.sql<{ token: string; name: string }[]>`
        SELECT token, name FROM advertiser_name_tokens ORDER BY token, name`
      ).map((row) => `${row.token} ${row.name}`);
    expect(await tokens()).toEqual(['redwood Redwood Tea', 'tea Redwood Tea']);
    await load([
      observation({ creative_id: 'C1', advertiser_id: 'AR1', advertiser_name: 'Blue Lagoon', seen_on: '2024-06-02' }),
    ]);
    expect(await tokens()).toEqual(['blue Blue Lagoon', 'lagoon Blue Lagoon']);
    expect(await similarNames(db.sql, 'Redwod Tea')).toEqual([]);
    // A name keyed again (a new key version) has its tokens written again, none twice.
    await db.sql`UPDATE advertiser_names SET search_tokens = ARRAY['blue', 'lagoon', 'spa']`;
    expect(await tokens()).toEqual(['blue Blue Lagoon', 'lagoon Blue Lagoon', 'spa Blue Lagoon']);
    // Words stay known with their variants: `lagon` is one letter from `lagoon`.
    const [{ found }] = await db.sql<{ found: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM name_word_variants v
                      WHERE v.word = 'lagoon' AND v.variant IN (SELECT word_variants('lagon'))) AS found`;
    expect(found).toBe(true);
  });

  it('a one-letter typo of a short name finds it (Harirs for Harris)', async () => {
    await resetData(db.sql);
    const names = ['Harris', 'Harrison Tools', 'Ikea', 'Globex'];
    await ingestObservations(
      db.sql,
      names.map((name, i) => observation({ creative_id: `C${i}`, advertiser_id: `AR${i}`, advertiser_name: name })),
      { today: TODAY },
    );
    expect((await similarNames(db.sql, 'Harirs'))[0]).toBe('Harris');
    expect((await similarNames(db.sql, 'Glbex'))[0]).toBe('Globex');
    expect(await checkAggregates(db.sql)).toEqual([]);
  });

  it('hold at most 256 kB of unmerged domain stems after a load', async () => {
    await resetData(db.sql);
    await db.sql`CREATE EXTENSION IF NOT EXISTS pgstattuple`;
    // 20,000 new names and stems: some 5 MB of trigram entries, more than PostgreSQL's 4 MB default.
    await ingestObservations(
      db.sql,
      Array.from({ length: 20_000 }, (_, i) =>
        observation({
          creative_id: `C${i}`,
          advertiser_id: `AR${i}`,
          advertiser_name: `Company number ${i} of the pending list`,
          landing_url: `https://pending-list-${i}.com/`,
        }),
      ),
      { today: TODAY },
    );
    const [{ pending_pages: pages }] = await db.sql<{ pending_pages: number }[]>`
      SELECT pending_pages FROM pgstatginindex('landing_domain_stems_by_trigrams'::regclass)`;
    expect(pages).toBeLessThanOrEqual(256 / 8);
    expect(await similarDomains(db.sql, 'pending-lst-19999.com')).toContain('pending-list-19999.com');
    // Names are found by their tokens, not a trigram index: the rarest of the query's finds it.
    expect(await similarNames(db.sql, 'Company numbr 19999 of the pending list')).toContain(
      'Company number 19999 of the pending list',
    );
    // 20,000 rows through the names' and stems' triggers: 8–9 s alone on 2 cores, over 30 s beside
    // the suite's other files on a machine with slow system calls.
  }, 120_000);

  it("are written in their search keys' order, so names alike share pages", async () => {
    await resetData(db.sql);
    await ingestObservations(
      db.sql,
      ['delta Tools', 'Alpha Tools', 'gamma Tools', 'Beta Tools', 'alpha Tools'].map((name, i) =>
        observation({ creative_id: `C${i}`, advertiser_id: `AR${i}`, advertiser_name: name }),
      ),
      { today: TODAY },
    );
    const stored = await db.sql<{ name: string }[]>`SELECT name FROM advertiser_names ORDER BY ctid`;
    expect(stored.map((row) => row.name)).toEqual([
      'Alpha Tools',
      'alpha Tools',
      'Beta Tools',
      'delta Tools',
      'gamma Tools',
    ]);
  });
});
