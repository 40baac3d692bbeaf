import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureNameRecall, type RecallReport, recallTables } from '../../scripts/quality/name-recall.ts';
import { misspell, SCRIPTS, scriptOf, TYPO_CLASSES, typoCases } from '../../scripts/quality/name-typos.ts';
import { ingestObservations } from '../../src/ingest/index.ts';
import { generateDataset, mulberry32 } from '../../src/synthetic/generator.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

const TODAY = new Date('2026-11-25T00:00:00Z');

describe('typo cases drawn from names', () => {
  it('every class of misspelling, in every script, the same for the same seed', () => {
    const names = ['Müller Bäckerei GmbH', 'Сбербанк России', '東京ガス株式会社', 'ธนาคารกรุงเทพ', '(주)삼성전자'];
    expect(names.map(scriptOf)).toEqual(['Latin', 'Cyrillic', 'Japanese', 'Thai', 'Hangul']);
    const cases = typoCases(names, 3, 1);
    expect(cases).toEqual(typoCases(names, 3, 1));
    expect(new Set(cases.map((c) => c.kind))).toEqual(new Set(TYPO_CLASSES));
    for (const { name, typo } of cases) expect(typo).not.toBe(name);
    const rng = mulberry32(5);
    expect(misspell(rng, 'Acme Outdoor GmbH', 'Latin', 'suffix_missing')).toBe('Acme Outdoor');
    expect(misspell(rng, 'Acme Outdoor', 'Latin', 'words_swapped')).toBe('Outdoor Acme');
    expect(misspell(rng, 'Acme Outdoor', 'Latin', 'words_joined')).toBe('AcmeOutdoor');
    expect(misspell(rng, '(주)삼성전자', 'Hangul', 'words_joined')).toBeNull();
  });
});

/**
 * The did-you-mean and the search measured on the demo dataset's names (every script has at least
 * one): at least 1,000 cases, held to the targets. Outside Latin the demo has one name per
 * script, so this proves a misspelled name is found, not that it beats look-alikes.
 */
describe('recall of the did-you-mean and the search', () => {
  let db: TestDatabase;
  let report: RecallReport;
  beforeAll(async () => {
    db = await createTestDatabase();
    await ingestObservations(db.sql, generateDataset({ seed: 11, size: 15_000, today: TODAY }).observations(), {
      today: TODAY,
    });
    report = await measureNameRecall(db.sql, 13, 27);
    console.log(recallTables(report));
  }, 300_000);
  afterAll(async () => {
    await db.drop();
  });

  it('at least 1,000 cases, every script and every class represented', () => {
    expect(report.overall.cases).toBeGreaterThanOrEqual(1_000);
    expect(Object.keys(report.byScript).sort()).toEqual([...SCRIPTS].sort());
    expect(Object.keys(report.byClass).sort()).toEqual([...TYPO_CLASSES].sort());
  });

  it('recall@5 at least 0.95 overall and 0.9 in every script; the search finds as many', () => {
    expect(report.overall.suggestions).toBeGreaterThanOrEqual(0.95);
    for (const script of SCRIPTS) expect([script, report.byScript[script]!.suggestions >= 0.9]).toEqual([script, true]);
    expect(report.overall.search).toBeGreaterThanOrEqual(report.overall.suggestions);
  });
});
