import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mix, mulberry32, type ObservationRecord } from './generator.ts';

/** The orders a generated observations file can have. */
export const ORDERS = ['crawl', 'sorted'] as const;
export type Order = (typeof ORDERS)[number];

const DAY_MS = 86_400_000;
const SPILL_CHARS = 1 << 16;

/**
 * `records` in the order a crawler writes them: day after day, and within a day in no particular
 * order, every advertiser's sightings mixed (a seeded shuffle, so the same records and seed give
 * the same order). The generator itself yields each advertiser's records together, sorted by
 * creative, which is the best case for ingest and not what real files look like.
 *
 * Memory holds one week of records: they are spilled to a temporary file per week, and each week
 * is read back, sorted and yielded in turn. The files are removed when the generator finishes or
 * is closed early.
 */
export function* inCrawlOrder(records: Iterable<ObservationRecord>, seed: number): Generator<ObservationRecord> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-crawl-order-'));
  const weeks = new Map<number, { fd: number | undefined; pending: string }>();
  try {
    const fileOf = (week: number) => path.join(folder, `${week}.ndjson`);
    for (const record of records) {
      const week = Math.floor(Date.parse(record.seen_on) / DAY_MS / 7);
      let spill = weeks.get(week);
      if (spill === undefined) {
        spill = { fd: fs.openSync(fileOf(week), 'w'), pending: '' };
        weeks.set(week, spill);
      }
      spill.pending += `${JSON.stringify(record)}\n`;
      if (spill.pending.length >= SPILL_CHARS) {
        fs.writeSync(spill.fd!, spill.pending);
        spill.pending = '';
      }
    }
    for (const spill of weeks.values()) {
      fs.writeSync(spill.fd!, spill.pending);
      fs.closeSync(spill.fd!);
      spill.fd = undefined;
    }
    for (const week of [...weeks.keys()].sort((a, b) => a - b)) {
      const rng = mulberry32(mix(seed, week, 5));
      const text = fs.readFileSync(fileOf(week), 'utf8');
      fs.rmSync(fileOf(week));
      const shuffled = text
        .split('\n')
        .slice(0, -1)
        .map((line) => ({ record: JSON.parse(line) as ObservationRecord, key: rng() }));
      shuffled.sort((a, b) =>
        a.record.seen_on < b.record.seen_on ? -1 : a.record.seen_on > b.record.seen_on ? 1 : a.key - b.key,
      );
      for (const { record } of shuffled) yield record;
    }
  } finally {
    for (const { fd } of weeks.values()) if (fd !== undefined) fs.closeSync(fd);
    fs.rmSync(folder, { recursive: true, force: true });
  }
}
