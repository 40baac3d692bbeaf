/**
 * The did-you-mean and the search on realistic names at two sizes, in one run
 * (docs/benchmarks.md, "Finding misspelled names"): each size's benchmark database (loaded once
 * with the world's names, as `npm run generate-data` writes them, then reused), typo cases drawn
 * from its own names (scripts/quality/name-typos.ts), every case run once to warm the cache and
 * once measured, the two sizes alternated. Reports recall per script and per typo class, and the
 * time of each query at the client on one local connection: the database's time per typo plus
 * one round trip.
 *
 *   npm run bench:names -- [--sizes 1000000,20000000] [--per-class 40] [--seed 27]
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { loadConfig, projectRoot } from '../../src/config.ts';
import { measureNameRecall, type RecallReport, recallTables } from '../quality/name-recall.ts';
import { databaseName, ensureDatabase, openBenchServer, openPool } from './database.ts';
import { ensureDataset } from './dataset.ts';

const log = (line: string) => console.log(`[bench:names] ${line}`);

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

interface SizeResult {
  observations: number;
  names: number;
  report: RecallReport;
}

const ms = (value: number) => value.toFixed(1);

function latencyTable(results: SizeResult[]): string {
  const rows = results.map(({ observations, names, report: { timings, overall } }) =>
    [
      observations.toLocaleString('en-US'),
      names.toLocaleString('en-US'),
      overall.cases.toLocaleString('en-US'),
      `${(overall.suggestions * 100).toFixed(1)} %`,
      ms(quantile(timings.suggestions, 0.5)),
      ms(quantile(timings.suggestions, 0.95)),
      `${(overall.search * 100).toFixed(1)} %`,
      ms(quantile(timings.search, 0.5)),
      ms(quantile(timings.search, 0.95)),
    ].join(' | '),
  );
  return [
    '| observations | names | cases | suggestions recall@5 | did-you-mean p50 ms | p95 ms ' +
      '| search recall | search p50 ms | p95 ms |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

function targetTable(small: SizeResult, large: SizeResult): string {
  const p50 = (result: SizeResult, kind: 'suggestions' | 'search') => quantile(result.report.timings[kind], 0.5);
  const rows = (['suggestions', 'search'] as const).flatMap((kind) => {
    const label = kind === 'suggestions' ? 'did-you-mean' : 'search';
    const ratio = p50(large, kind) / p50(small, kind);
    const holds = (ok: boolean) => (ok ? 'yes' : 'no');
    return [
      `| ${label}: p50 at the larger size / p50 at the smaller | ≤ 1.5 | ${ratio.toFixed(2)} ` +
        `| ${holds(ratio <= 1.5)} |`,
      `| ${label}: time per typo at the larger size, p50 | ≤ 15 ms | ${ms(p50(large, kind))} ms ` +
        `| ${holds(p50(large, kind) <= 15)} |`,
    ];
  });
  return ['| target | goal | measured | holds |', '|---|---|---:|---|', ...rows].join('\n');
}

async function main(argv: string[]): Promise<void> {
  const options = new Command()
    .option('--sizes <list>', 'the two dataset sizes', (value) => value.split(',').map(Number), [1_000_000, 20_000_000])
    .option('--per-class <n>', 'typo cases per class and script', Number, 40)
    .option('--seed <n>', 'seed of the typo cases', Number, 27)
    .parse(argv)
    .opts<{ sizes: number[]; perClass: number; seed: number }>();
  const server = await openBenchServer(loadConfig().databaseUrl, log);
  const pools = [];
  try {
    for (const size of options.sizes) {
      const url = await ensureDatabase(server, databaseName(size));
      const sql = openPool(url, 1);
      pools.push({ size, sql });
      await ensureDataset(sql, size, log, process.stdout);
      // A load leaves the visibility map to autovacuum; the token lists are read index-only.
      await sql`VACUUM (ANALYZE) advertiser_names, advertiser_name_tokens, name_word_variants`;
    }
    log('Warming each size with its cases, then measuring them, the sizes alternated');
    for (const { sql } of pools) await measureNameRecall(sql, options.perClass, options.seed);
    const results: SizeResult[] = [];
    for (const { size, sql } of pools) {
      const [{ names }] = await sql<{ names: number }[]>`SELECT count(*)::integer AS names FROM advertiser_names`;
      results.push({ observations: size, names, report: await measureNameRecall(sql, options.perClass, options.seed) });
    }
    const out = [
      latencyTable(results),
      '',
      targetTable(results[0], results[1]),
      ...results.flatMap((result) => [
        '',
        `At ${result.observations.toLocaleString('en-US')} observations:`,
        '',
        recallTables(result.report),
      ]),
    ].join('\n');
    console.log(`\n${out}\n`);
    const file = path.join(projectRoot, 'bench', 'names.json');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const saved = results.map(({ report, ...rest }) => ({
      ...rest,
      overall: report.overall,
      byScript: report.byScript,
      byClass: report.byClass,
      missed: report.missed,
      p50: { suggestions: quantile(report.timings.suggestions, 0.5), search: quantile(report.timings.search, 0.5) },
      p95: { suggestions: quantile(report.timings.suggestions, 0.95), search: quantile(report.timings.search, 0.95) },
    }));
    fs.writeFileSync(file, `${JSON.stringify({ date: new Date().toISOString(), options, results: saved }, null, 2)}\n`);
    log(`Wrote ${path.relative(projectRoot, file)}`);
  } finally {
    for (const { sql } of pools) await sql.end({ timeout: 5 });
    await server.close();
  }
}

await main(process.argv);
