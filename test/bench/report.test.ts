import { describe, expect, it } from 'vitest';
import type { TargetResult } from '../../scripts/bench/report.ts';
import {
  cappedTable,
  compareScale,
  evaluateTargets,
  pooledCappedOverSpread,
  ratioRows,
  resultsTable,
  type ScaleSide,
} from '../../scripts/bench/report.ts';
import type { CellMode, CellResult } from '../../scripts/bench/stats.ts';
import { percentile } from '../../scripts/bench/stats.ts';

function cell(
  mode: CellMode,
  operation: string,
  concurrency: number,
  requestsPerSecond: number,
  p50: number | null = 1,
  peakRssMb: number | null = null,
  { p99 = p50, cpuMicrosPerRequest = null }: { p99?: number | null; cpuMicrosPerRequest?: number | null } = {},
): CellResult {
  return {
    mode,
    operation,
    concurrency,
    requestsPerSecond,
    p50,
    p99,
    cpuMicrosPerRequest,
    requests: 1,
    notFound: 0,
    errors: 0,
    errorStatuses: {},
    seconds: 1,
    peakRssMb,
  };
}

/** The one target whose name starts with `name`. */
function target(targets: TargetResult[], name: string): TargetResult {
  const found = targets.filter((candidate) => candidate.name.startsWith(name));
  expect(found, name).toHaveLength(1);
  return found[0];
}

const run = (observations: number, cells: CellResult[]): ScaleSide => ({
  observations,
  date: '2025-01-01T00:00:00Z',
  commit: 'abc',
  cells,
});

describe('benchmark targets (docs/benchmarks.md)', () => {
  it('service/baseline and hot/spread are throughput ratios of the same operation and concurrency', () => {
    const rows = ratioRows([
      cell('service', 'advertiser', 32, 700),
      cell('baseline', 'advertiser', 32, 1000),
      cell('hot', 'advertiser', 32, 630),
      cell('capped', 'advertiser', 32, 672),
      cell('service', 'advertiser', 8, 500),
      cell('baseline', 'advertiser', 8, 400),
      cell('floor', 'floor', 32, 5000),
    ]);
    expect(rows).toEqual([
      {
        operation: 'advertiser',
        concurrency: 32,
        serviceOverBaseline: 0.7,
        hotOverSpread: 0.9,
        cappedOverSpread: 0.96,
        addedP50Ms: 0,
        addedP99Ms: 0,
        addedCpuMicros: null,
      },
      {
        operation: 'advertiser',
        concurrency: 8,
        serviceOverBaseline: 1.25,
        hotOverSpread: null,
        cappedOverSpread: null,
        addedP50Ms: 0,
        addedP99Ms: 0,
        addedCpuMicros: null,
      },
    ]);
  });

  it('service/baseline holds when every operation reaches 0.9 at c=32, c=8 only shown; hot/spread at c=32', () => {
    const cells = [
      cell('service', 'advertiser', 32, 950),
      cell('baseline', 'advertiser', 32, 1000),
      cell('hot', 'advertiser', 32, 950),
      cell('service', 'domain', 32, 890),
      cell('baseline', 'domain', 32, 1000),
      cell('hot', 'domain', 32, 801),
      cell('service', 'domain', 8, 100),
      cell('baseline', 'domain', 8, 1000),
      // The hot key at c=8 is shown, not judged.
      cell('hot', 'domain', 8, 1),
    ];
    const targets = evaluateTargets(cells, 249.9);
    expect(target(targets, 'service / direct-SQL baseline throughput, keys spread, c=32')).toMatchObject({
      measured: 0.89,
      ok: false,
      detail: { advertiser: 0.95, domain: 0.89 },
    });
    expect(targets.filter((t) => t.name.includes('throughput, keys spread, c=8'))).toEqual([]);
    expect(target(targets, 'hot account')).toMatchObject({ measured: 0.9, ok: true, detail: { advertiser: 1 } });
    expect(target(targets, 'peak service RSS')).toMatchObject({ measured: 249.9, ok: true });
    expect(target(evaluateTargets(cells, 250), 'peak service RSS').ok).toBe(false);
  });

  it('added CPU per answer at c=8: service minus baseline, at most 60 µs for each operation, worst shown', () => {
    const cells = [
      cell('service', 'advertiser', 8, 1, 1, null, { cpuMicrosPerRequest: 310 }),
      cell('baseline', 'advertiser', 8, 1, 1, null, { cpuMicrosPerRequest: 260 }),
      cell('service', 'account', 8, 1, 1, null, { cpuMicrosPerRequest: 201 }),
      cell('baseline', 'account', 8, 1, 1, null, { cpuMicrosPerRequest: 140 }),
      // c=32 is not judged.
      cell('service', 'account', 32, 1, 1, null, { cpuMicrosPerRequest: 900 }),
      cell('baseline', 'account', 32, 1, 1, null, { cpuMicrosPerRequest: 100 }),
    ];
    expect(target(evaluateTargets(cells, 1), 'added CPU per answer')).toMatchObject({
      measured: 61,
      ok: false,
      detail: { advertiser: 50, account: 61 },
    });
    cells[2] = cell('service', 'account', 8, 1, 1, null, { cpuMicrosPerRequest: 200 });
    expect(target(evaluateTargets(cells, 1), 'added CPU per answer')).toMatchObject({ measured: 60, ok: true });
  });

  it('a single caller (c=1): added p50 at most 0.3 ms and added p99 at most 1 ms, for each operation', () => {
    const cells = [
      cell('service', 'advertiser', 1, 1, 1.3, null, { p99: 3 }),
      cell('baseline', 'advertiser', 1, 1, 1, null, { p99: 2 }),
      cell('service', 'account', 1, 1, 0.7, null, { p99: 2.1 }),
      cell('baseline', 'account', 1, 1, 0.5, null, { p99: 1 }),
      // c=8 is not judged for latency.
      cell('service', 'account', 8, 1, 9, null, { p99: 30 }),
      cell('baseline', 'account', 8, 1, 1, null, { p99: 1 }),
    ];
    expect(target(evaluateTargets(cells, 1), 'a single caller: service p50')).toMatchObject({
      measured: 0.3,
      ok: true,
      detail: { advertiser: 0.3, account: 0.2 },
    });
    expect(target(evaluateTargets(cells, 1), 'a single caller: service p99')).toMatchObject({
      measured: 1.1,
      ok: false,
      detail: { advertiser: 1, account: 1.1 },
    });
  });

  it('framework floor over bare Hono, at least 0.5 at c=8 and at c=32', () => {
    const cells = [
      cell('floor', 'floor', 8, 5000),
      cell('bare', 'bare hono', 8, 10000),
      cell('floor', 'floor', 32, 4900),
      cell('bare', 'bare hono', 32, 10000),
    ];
    const targets = evaluateTargets(cells, 1);
    expect(target(targets, 'framework floor / bare Hono throughput, c=8')).toMatchObject({ measured: 0.5, ok: true });
    expect(target(targets, 'framework floor / bare Hono throughput, c=32')).toMatchObject({
      measured: 0.49,
      ok: false,
    });
    const table = resultsTable({ cells }).split('\n');
    expect(table.find((line) => line.startsWith('| bare Hono | 8 |'))).toContain('| 10,000 |');
    expect(table.find((line) => line.startsWith('| framework floor | 32 |'))).toContain('| 4,900 |');
  });

  it('the floor target shows its calibration: bare Hono with 15 µs of work per answer, over bare Hono', () => {
    const cells = [
      cell('floor', 'floor', 8, 5000),
      cell('bare', 'bare hono', 8, 10000),
      cell('bare-work', 'bare Hono + 15 µs', 8, 5500),
    ];
    expect(target(evaluateTargets(cells, 1), 'framework floor / bare Hono throughput, c=8')).toMatchObject({
      measured: 0.5,
      detail: { 'bare Hono + 15 µs': 0.55 },
    });
    const table = resultsTable({ cells }).split('\n');
    expect(table.find((line) => line.startsWith('| bare Hono + 15 µs | 8 |'))).toContain('| 5,500 |');
  });

  it('capped/spread: the billed operations pooled at c=32 (≥ 0.95), each one shown, the free account outside', () => {
    const cells = [
      cell('service', 'advertiser', 32, 1000),
      cell('capped', 'advertiser', 32, 980),
      cell('service', 'domain', 32, 500),
      cell('capped', 'domain', 32, 440),
      cell('service', 'account', 32, 5000),
      cell('capped', 'account', 32, 1000),
      cell('service', 'domain', 8, 1000),
      cell('capped', 'domain', 8, 1),
    ];
    // (980 + 440) / (1000 + 500) = 0.9467: the account's 0.2 is a control, not pooled.
    const capped = target(evaluateTargets(cells, 100), 'keys with a daily cap');
    expect(capped).toMatchObject({
      measured: 0.947,
      ok: false,
      detail: { advertiser: 0.98, domain: 0.88, account: 0.2 },
    });
    cells[3] = cell('capped', 'domain', 32, 445);
    expect(target(evaluateTargets(cells, 100), 'keys with a daily cap')).toMatchObject({ measured: 0.95, ok: true });
    expect(pooledCappedOverSpread(cells, 8)).toBe(0.001);
    const withoutOneCappedCell = cells.filter((c) => !(c.mode === 'capped' && c.operation === 'domain'));
    expect(pooledCappedOverSpread(withoutOneCappedCell, 32)).toBeNull();
  });

  it('capped/spread is shown per operation and concurrency, and the capped cells have their own columns', () => {
    const cells = [
      cell('service', 'advertiser', 8, 1000),
      cell('capped', 'advertiser', 8, 990),
      cell('service', 'advertiser', 32, 1000),
      cell('capped', 'advertiser', 32, 1234),
      cell('service', 'account', 32, 1000),
    ];
    expect(cappedTable(cells).split('\n')).toEqual([
      '| operation | capped/spread, c=8 | capped/spread, c=32 |',
      '| :-- | --: | --: |',
      '| advertiser | 0.99 | 1.23 |',
      '| account | — | — |',
      '| **billed operations pooled** | **0.990** | **1.234** |',
    ]);
    const table = resultsTable({ cells }).split('\n');
    expect(table[0]).toContain('| hot req/s | p50 ms | p99 ms | err | capped req/s | p50 ms | p99 ms | err |');
    expect(table.find((line) => line.startsWith('| advertiser | 32 |'))).toContain('| 1,234 | 1.00 | 1.00 | 0 |');
    expect(new Set(table.map((line) => line.split('|').length)).size).toBe(1);
  });

  it('a missing measurement fails its target instead of passing it', () => {
    const targets = evaluateTargets(
      [cell('service', 'advertiser', 32, 950), cell('baseline', 'advertiser', 32, 1000)],
      null,
    );
    expect(target(targets, 'service / direct-SQL baseline throughput, keys spread, c=32').ok).toBe(true);
    expect(target(targets, 'added CPU per answer').ok).toBe(false);
    expect(target(targets, 'a single caller: service p50')).toMatchObject({ ok: false, measured: null });
    expect(target(targets, 'hot account')).toMatchObject({ ok: false, measured: null, detail: { advertiser: null } });
    expect(target(targets, 'peak service RSS').ok).toBe(false);
    expect(target(targets, 'framework floor / bare Hono throughput, c=8')).toMatchObject({ ok: false, measured: null });
    const measuredByCells = evaluateTargets([], 100).filter((result) => !result.name.startsWith('peak service RSS'));
    expect(measuredByCells.every((result) => !result.ok)).toBe(true);
  });

  it('scale: p50 on the large dataset over the small one, judged at c=8 on every operation', () => {
    const small = run(1_000_000, [
      cell('service', 'advertiser', 8, 1, 2),
      cell('service', 'brandbid', 8, 1, 4),
      cell('service', 'brandbid', 32, 1, 10),
    ]);
    const within = run(20_000_000, [
      cell('service', 'advertiser', 8, 1, 3),
      cell('service', 'brandbid', 8, 1, 4.4),
      cell('service', 'brandbid', 32, 1, 40),
    ]);
    const comparison = compareScale(small, within, { method: 'interleaved' });
    expect(comparison.target).toMatchObject({ measured: 1.5, ok: true, detail: { advertiser: 1.5, brandbid: 1.1 } });
    expect(comparison.rows.find((row) => row.concurrency === 32)?.ratio).toBe(4);
    const beyond = run(20_000_000, [cell('service', 'advertiser', 8, 1, 3.1), cell('service', 'brandbid', 8, 1, 4)]);
    expect(compareScale(small, beyond, { method: 'separate runs' }).target).toMatchObject({
      measured: 1.55,
      ok: false,
    });
  });

  it('percentiles are nearest-rank over what was recorded', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNull();
  });
});
