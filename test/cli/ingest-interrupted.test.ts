// @module-tag runtime
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rootDomain } from '../../src/contract/root-domain.ts';
import { createAccount } from '../../src/data/accounts.ts';
import type { Sql } from '../../src/data/client.ts';
import { checkAggregates } from '../../src/ingest/index.ts';
import { writeDataset } from '../../src/synthetic/write-files.ts';
import { DATA_TABLES } from '../ingest/helpers.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { finish, runCli, startCli, temporaryFolder } from './run-cli.ts';

const OBSERVATIONS = 60_000;
const BATCH = 1_000;

let interrupted: TestDatabase;
let clean: TestDatabase;
const folder = temporaryFolder('alk-ingest-interrupted-');
let file: string;
beforeAll(async () => {
  [interrupted, clean] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  file = folder.file('big.ndjson');
  await writeDataset({
    observations: OBSERVATIONS,
    seed: 9,
    today: new Date('2026-01-15T00:00:00Z'),
    out: file,
    crawls: null,
    labels: null,
  });
  // Brand watches (docs/product-rules.md R19.20) on domains and names spread over the file, the
  // same in both databases: an interrupted and completed load finds each change once, as a clean one.
  const records = readFileSync(file, 'utf8').trim().split('\n');
  const picked = Array.from({ length: 40 }, (_, n) => JSON.parse(records[Math.floor((n * records.length) / 40)]));
  for (const db of [interrupted, clean]) {
    const { id: accountId } = await createAccount(db.sql);
    for (const [n, record] of picked.entries()) {
      const target = n % 2 === 0 ? rootDomain(record.landing_url) : record.advertiser_name;
      const kind = n % 2 === 0 ? 'domain' : 'advertiser';
      if (target)
        await db.sql`INSERT INTO public.watches (account_id, kind, target) VALUES (${accountId}, ${kind}, ${target})
        ON CONFLICT DO NOTHING`;
    }
  }
});
afterAll(async () => {
  await Promise.all([interrupted?.drop(), clean?.drop()]);
  folder.remove();
});

const count = async (sql: Sql) => (await sql<{ n: number }[]>`SELECT count(*)::integer AS n FROM observations`)[0].n;

/**
 * Every data table, without the ingest sequence numbers: a resumed load numbers its later
 * batches after the interrupted run's, so only their order, which decides names, must agree.
 */
async function contents(sql: Sql): Promise<Record<string, unknown[]>> {
  const result: Record<string, unknown[]> = {};
  for (const table of DATA_TABLES) {
    const rows = await sql.unsafe(
      `SELECT (to_jsonb(t) - 'ingest_seq' - 'name_ingest_seq')::text AS row FROM ${table} t ORDER BY 1`,
    );
    result[table] = rows.map((r) => r.row);
  }
  return result;
}

/** Each watch's changes, by the watch's kind and target (ids differ between databases). */
async function watchEvents(sql: Sql): Promise<string[]> {
  const rows = await sql<{ row: string }[]>`
    SELECT concat_ws(' ', w.kind, w.target, e.advertiser_id, e.advertiser, e.landing_domain, e.first_seen) AS row
    FROM public.watch_events e JOIN public.watches w ON w.id = e.watch_id
    ORDER BY 1`;
  return rows.map((r) => r.row);
}

describe('npm run ingest: a load killed part way', () => {
  it('leaves whole batches and exact aggregates; the same command completes it, equal to a clean load', async () => {
    const args = [
      'observations',
      file,
      '--json',
      '--batch-size',
      String(BATCH),
      '--rejects',
      folder.file('rejects.ndjson'),
    ];
    const child = startCli('ingest', args, interrupted.url);
    const exited = finish(child);
    // Killed once a few batches are in: mid-way, usually with a batch in flight.
    for (let n = 0; (await count(interrupted.sql)) < 5 * BATCH; n += 1) {
      if (n > 1200)
        throw new Error(
          `the load did not get going: ${JSON.stringify(await Promise.race([exited, sleep(1, 'still running')]))}`,
        );
      await sleep(50);
    }
    child.kill('SIGKILL');
    expect(await exited).toMatchObject({ signal: 'SIGKILL', stdout: '' });

    const loaded = await count(interrupted.sql);
    expect(loaded).toBeLessThan(OBSERVATIONS);
    expect(loaded % BATCH).toBe(0); // every generated row is a new observation: only whole batches
    expect(await checkAggregates(interrupted.sql)).toEqual([]);

    const resumed = await runCli('ingest', args, { databaseUrl: interrupted.url });
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({
      read: OBSERVATIONS,
      new: OBSERVATIONS - loaded,
      updated: 0,
      unchanged: loaded,
      rejected: 0,
    });
    expect(await checkAggregates(interrupted.sql)).toEqual([]);

    const single = await runCli('ingest', args, { databaseUrl: clean.url });
    expect(JSON.parse(single.stdout)).toMatchObject({ read: OBSERVATIONS, new: OBSERVATIONS, rejected: 0 });
    expect(await contents(interrupted.sql)).toEqual(await contents(clean.sql));
    const events = await watchEvents(clean.sql);
    expect(events.length).toBeGreaterThan(40);
    expect(await watchEvents(interrupted.sql)).toEqual(events);
  }, 180_000);
});
