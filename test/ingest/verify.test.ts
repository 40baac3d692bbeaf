import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAggregates, ingestObservations } from '../../src/ingest/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { observation, TODAY } from './helpers.ts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

describe('checkAggregates', () => {
  it('finds nothing after a load, and reports a creative whose observations name two identifiers', async () => {
    await ingestObservations(db.sql, [observation({ creative_id: 'C1', advertiser_id: 'AR1' })], { today: TODAY });
    expect(await checkAggregates(db.sql)).toEqual([]);
    // Written around ingest, which would reject it: a creative has one owner.
    await db.sql`
      INSERT INTO observations (creative_id, seen_on, landing_domain, advertiser_id, advertiser_name, country,
        ingest_seq)
      VALUES ('C1', '2024-06-02', 'acme-outdoor.com', 'AR2', 'Other', 'US', 1)`;
    expect(await checkAggregates(db.sql)).toContain('observations: 1 creative(s) tied to more than one identifier');
  });
});
