import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endRuns, registerRun } from '../../src/data/service-runs.ts';
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
  await db.sql`DELETE FROM service_runs`;
});

/** 300 rows over 30 advertisers, in batches of 50: several batches, so a second connection would be used. */
const ROWS = Array.from({ length: 300 }, (_, i) =>
  observation({
    creative_id: `CR${i}`,
    advertiser_id: `AR${i % 30}`,
    advertiser_name: `Advertiser ${i % 30}`,
    landing_url: `https://brand-${i % 7}.com/`,
  }),
);

async function load(options: { fullSpeed?: boolean } = {}) {
  const told: { count: number; yields: boolean }[] = [];
  const summary = await ingestObservations(db.sql, ROWS, {
    today: TODAY,
    batchSize: 50,
    ...options,
    onConnections: (count, yields) => told.push({ count, yields }),
  });
  return { summary, told };
}

const startRun = async () => {
  const id = randomUUID();
  await registerRun(db.sql, { id, host: 'lookup-host', pid: 4242 });
  return id;
};

describe('a load beside the running service (docs/product-rules.md R10.24)', () => {
  it(
    'yields: applies on one connection while a service runs on the database, ' + 'the same rows and aggregates',
    async () => {
      const alone = await load();
      expect(alone.told).toEqual([{ count: 2, yields: false }]);
      const written = await snapshot(db.sql);

      await resetData(db.sql);
      await startRun();
      const beside = await load();
      expect(beside.told).toEqual([{ count: 1, yields: true }]);
      expect(beside.summary).toEqual(alone.summary);
      expect(await snapshot(db.sql)).toEqual(written);
      expect(await checkAggregates(db.sql)).toEqual([]);
    },
  );

  it('--full-speed applies on two connections beside the service; an ended or silent run is no service', async () => {
    const run = await startRun();
    expect((await load({ fullSpeed: true })).told).toEqual([{ count: 2, yields: false }]);

    await endRuns(db.sql, [run]);
    expect((await load()).told).toEqual([{ count: 2, yields: false }]);

    // A run whose heartbeat stopped (a killed process) is not a service to yield to.
    const silent = await startRun();
    await db.sql`UPDATE service_runs SET heartbeat_at = now() - interval '1 hour' WHERE id = ${silent}`;
    expect((await load()).told).toEqual([{ count: 2, yields: false }]);
  });
});
