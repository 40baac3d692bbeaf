// @module-tag database-free
import { describe, expect, it } from 'vitest';
import { ceiling, type Floor, type IngestResults, ingestReport, type Load } from '../../scripts/bench/ingest-report.ts';

const floor: Floor = {
  rows: 1_000_000,
  seconds: 12,
  rowsPerSecond: 1_000_000 / 12,
  backendCpuSeconds: 12,
  aggregatesExact: true,
};

function load(overrides: Partial<Load> = {}): Load {
  return {
    label: 'crawl order, fresh database',
    observations: 1_000_000,
    fresh: true,
    seconds: 25,
    rowsPerSecond: 40_000,
    peakRssMb: 500,
    ingestCpuSeconds: 8,
    backendCpuSeconds: 30,
    summary: {},
    aggregatesExact: true,
    ...overrides,
  };
}

describe('the ingest benchmark report (docs/ingest.md)', () => {
  it('the ceiling: every core busy, the ingest process as measured, PostgreSQL doing only the floor', () => {
    // 8 µs of the ingest process and 12 µs of the floor per row: 20 µs, two cores.
    expect(ceiling(load(), { floor, cores: 2 })).toBeCloseTo(100_000, 6);
    expect(ceiling(load(), { floor, cores: 4 })).toBeCloseTo(200_000, 6);
  });

  it('the ceiling of the daily increment comes from the increment floor, not the fresh database floor', () => {
    const incrementFloor: Floor = { ...floor, backendCpuSeconds: 2 };
    const alone = load({ fresh: false, increment: true });
    // 8 µs of the ingest process and 2 µs of the increment floor per row.
    expect(ceiling(alone, { floor, incrementFloor, cores: 2 })).toBeCloseTo(200_000, 6);
    expect(ceiling(load(), { floor, incrementFloor, cores: 2 })).toBeCloseTo(100_000, 6);
  });

  it('has no ceiling for a load into data already there, of another size, or without CPU figures', () => {
    expect(ceiling(load({ fresh: false }), { floor, cores: 2 })).toBeNull();
    expect(ceiling(load({ fresh: false, increment: true }), { floor, cores: 2 })).toBeNull();
    expect(ceiling(load({ observations: 5_000_000 }), { floor, cores: 2 })).toBeNull();
    expect(ceiling(load({ ingestCpuSeconds: null }), { floor, cores: 2 })).toBeNull();
    expect(ceiling(load(), { floor: { ...floor, backendCpuSeconds: null }, cores: 2 })).toBeNull();
    expect(ceiling(load(), { cores: 2 })).toBeNull();
  });

  it('shows the floor and each load with its CPU per row and its ceiling, beside the raw COPY', () => {
    const results: IngestResults = {
      measuredAt: '2026-11-26T09:00:00Z',
      command: '--observations 1000000',
      observations: 1_000_000,
      batchSize: 'default',
      server: 'embedded PostgreSQL',
      cores: 2,
      limits: [{ table: 'an unlogged table without indexes', seconds: 1, rowsPerSecond: 1_000_000 }],
      floor,
      loads: [load(), load({ label: 'a quarter new', fresh: false, backendCpuSeconds: null })],
    };
    const lines = ingestReport(results).split('\n');
    expect(lines.slice(0, 2).join(' ')).toContain('2 cores');
    expect(lines.find((line) => line.startsWith('| floor:'))).toBe(
      '| floor: the end state from COPY text, one set-based pass, one backend | 12.0 | 83,333 | 0.08 | ' +
        '0 + 12.0 | | | | exact |',
    );
    expect(lines.find((line) => line.includes('crawl order'))).toBe(
      '| `npm run ingest`, 1,000,000 observations, crawl order, fresh database | 25.0 | 40,000 | 0.04 | 8.0 + 30.0 | ' +
        '100,000 | 0.400 | 500 | exact |',
    );
    expect(lines.find((line) => line.includes('a quarter new'))).toContain('| 0.04 | 8.0 + ? |  |  | 500 | exact |');
  });
});
