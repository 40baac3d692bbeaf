import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ingestLabels } from '../../src/ingest/index.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { resetData, snapshot } from './helpers.ts';

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

const label = (name: unknown, type?: unknown) =>
  type === undefined ? { advertiser_name: name } : { advertiser_name: name, advertiser_type: type };

async function labels(): Promise<Record<string, string>> {
  const rows = await db.sql<{ advertiser_name: string; advertiser_type: string }[]>`
    SELECT advertiser_name, advertiser_type FROM labels ORDER BY advertiser_name`;
  return Object.fromEntries(rows.map((r) => [r.advertiser_name, r.advertiser_type]));
}

describe('ingest labels (docs/product-rules.md §10 Labels)', () => {
  it('agency or direct set the label; setting is "new", changing "updated", repeating "unchanged"', async () => {
    const summary = await ingestLabels(db.sql, [
      label('Northwind Media', 'agency'),
      label('Acme Outdoor', 'direct'),
      label('Acme Outdoor', 'agency'),
      label('Acme Outdoor', 'agency'),
    ]);
    expect(summary).toEqual({ read: 4, new: 2, updated: 1, unchanged: 1, rejected: 0, rejects: [] });
    expect(await labels()).toEqual({ 'Acme Outdoor': 'agency', 'Northwind Media': 'agency' });
  });

  it.each([[''], [null], [undefined], ['none']])(
    '%j clears the label back to null ("updated"; "unchanged" when none was set)',
    async (type) => {
      await ingestLabels(db.sql, [label('Acme Outdoor', 'direct')]);
      const summary = await ingestLabels(db.sql, [label('Acme Outdoor', type), label('Never Labelled', type)]);
      expect(summary).toMatchObject({ read: 2, new: 0, updated: 1, unchanged: 1, rejected: 0 });
      expect(await labels()).toEqual({});
    },
  );

  it.each([['Agency'], ['DIRECT'], [' direct'], ['None'], ['unknown'], ['   '], [1], [true]])(
    'anything else is rejected: %j',
    async (type) => {
      await ingestLabels(db.sql, [label('Acme Outdoor', 'direct')]);
      const summary = await ingestLabels(db.sql, [label('Acme Outdoor', type)]);
      expect(summary.rejects).toEqual([{ line: 1, reason: 'unknown advertiser_type' }]);
      expect(await labels()).toEqual({ 'Acme Outdoor': 'direct' });
    },
  );

  it('the label belongs to the name byte for byte (case and white space matter)', async () => {
    await ingestLabels(db.sql, [label('Acme', 'direct'), label('ACME', 'agency'), label(' Acme', 'agency')]);
    expect(await labels()).toEqual({ ' Acme': 'agency', ACME: 'agency', Acme: 'direct' });
  });

  it('advertiser_name follows the observation rules: missing, too long', async () => {
    const summary = await ingestLabels(db.sql, [
      label('', 'agency'),
      label('  ', 'agency'),
      label('x'.repeat(513), 'agency'),
      label('x'.repeat(512), 'agency'),
    ]);
    expect(summary.rejects).toEqual([
      { line: 1, reason: 'missing advertiser_name' },
      { line: 2, reason: 'missing advertiser_name' },
      { line: 3, reason: 'advertiser_name too long' },
    ]);
    expect(summary.new).toBe(1);
  });

  it('the last row of a name wins, whatever the batch size; each row is counted against the one before', async () => {
    const input = [
      label('A', 'agency'),
      label('A', 'none'),
      label('A', 'direct'),
      label('A', 'direct'),
      label('B', ''),
    ];
    for (const batchSize of [1, 2, 100]) {
      await resetData(db.sql);
      const summary = await ingestLabels(db.sql, input, { batchSize });
      expect(summary).toEqual({ read: 5, new: 2, updated: 1, unchanged: 2, rejected: 0, rejects: [] });
      expect(await labels()).toEqual({ A: 'direct' });
    }
  });

  it('idempotency: the same input twice changes nothing', async () => {
    const input = [label('A', 'agency'), label('B', 'direct'), label('C', 'none')];
    await ingestLabels(db.sql, input);
    const before = await snapshot(db.sql);
    expect(await ingestLabels(db.sql, input)).toMatchObject({ new: 0, updated: 0, unchanged: 3 });
    expect(await snapshot(db.sql)).toEqual(before);
  });
});
