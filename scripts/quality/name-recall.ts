/**
 * How often the did-you-mean and the search find the name a customer misspelled
 * (docs/product-rules.md §15): typo cases drawn from the database's own advertiser names
 * (name-typos.ts), every class in every script the names are written in; recall@5 of the
 * suggestions (the intended name among the 5 a data 404 carries) and recall of the search (the
 * intended name in its answer), overall, per script and per typo class.
 *
 *   DATABASE_URL=postgres://… npx tsx scripts/quality/name-recall.ts [--per-class 40] [--seed 27]
 */
import { pathToFileURL } from 'node:url';
import { connect, type Sql } from '../../src/data/client.ts';
import { searchAdvertisers, similarNames } from '../../src/data/search.ts';
import { type Script, TYPO_CLASSES, type TypoCase, type TypoClass, typoCases } from './name-typos.ts';

export interface Recall {
  cases: number;
  /** The share of cases whose name is among the suggestions. */
  suggestions: number;
  /** The share of cases whose name is in the search's answer. */
  search: number;
}

export interface RecallReport {
  overall: Recall;
  byScript: Partial<Record<Script, Recall>>;
  byClass: Partial<Record<TypoClass, Recall>>;
  /** Cases whose name the suggestions missed, a few per script, to read. */
  missed: TypoCase[];
  /** Milliseconds per case of each query, measured at the client, in case order. */
  timings: { suggestions: number[]; search: number[] };
}

interface Outcome {
  typo: TypoCase;
  suggested: boolean;
  found: boolean;
  suggestionsMs: number;
  searchMs: number;
}

function recallOf(outcomes: readonly Outcome[]): Recall {
  const share = (count: number) => (outcomes.length === 0 ? 0 : count / outcomes.length);
  return {
    cases: outcomes.length,
    suggestions: share(outcomes.filter((o) => o.suggested).length),
    search: share(outcomes.filter((o) => o.found).length),
  };
}

function groupBy<K extends string>(outcomes: readonly Outcome[], key: (o: Outcome) => K): Partial<Record<K, Recall>> {
  const groups = new Map<K, Outcome[]>();
  for (const outcome of outcomes) {
    const group = groups.get(key(outcome));
    if (group === undefined) groups.set(key(outcome), [outcome]);
    else group.push(outcome);
  }
  return Object.fromEntries([...groups].map(([k, group]) => [k, recallOf(group)])) as Partial<Record<K, Recall>>;
}

/** Measures on the names of `sql`'s advertiser_names: `perClass` cases per class and script. */
export async function measureNameRecall(sql: Sql, perClass: number, seed: number): Promise<RecallReport> {
  const names = (await sql<{ name: string }[]>`SELECT name FROM advertiser_names ORDER BY name`).map((r) => r.name);
  const outcomes: Outcome[] = [];
  for (const typo of typoCases(names, perClass, seed)) {
    let started = performance.now();
    const suggested = (await similarNames(sql, typo.typo)).includes(typo.name);
    const suggestionsMs = performance.now() - started;
    started = performance.now();
    const { advertisers } = await searchAdvertisers(sql, typo.typo);
    const searchMs = performance.now() - started;
    const found = advertisers.some((match) => match.advertiser === typo.name);
    outcomes.push({ typo, suggested, found, suggestionsMs, searchMs });
  }
  const missedPerScript = new Map<Script, TypoCase[]>();
  for (const { typo, suggested } of outcomes) {
    const group = missedPerScript.get(typo.script) ?? [];
    if (!suggested && group.length < 3) missedPerScript.set(typo.script, [...group, typo]);
  }
  const missed = [...missedPerScript.values()].flat();
  return {
    overall: recallOf(outcomes),
    byScript: groupBy(outcomes, (o) => o.typo.script),
    byClass: groupBy(outcomes, (o) => o.typo.kind),
    missed,
    timings: {
      suggestions: outcomes.map((o) => o.suggestionsMs),
      search: outcomes.map((o) => o.searchMs),
    },
  };
}

/** The report as Markdown tables. */
export function recallTables(report: RecallReport): string {
  const percent = (share: number) => `${(share * 100).toFixed(1)} %`;
  const rows = (entries: [string, Recall | undefined][]) =>
    entries
      .filter((entry): entry is [string, Recall] => entry[1] !== undefined)
      .map(([label, r]) => `| ${label} | ${r.cases} | ${percent(r.suggestions)} | ${percent(r.search)} |`);
  const head = (label: string) => [
    `| ${label} | cases | suggestions recall@5 | search recall |`,
    '|---|---:|---:|---:|',
  ];
  return [
    ...head('script'),
    ...rows([...Object.entries(report.byScript), ['**all**', report.overall]]),
    '',
    ...head('typo'),
    ...rows(TYPO_CLASSES.map((kind) => [kind, report.byClass[kind]])),
  ].join('\n');
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL: the database whose names are measured');
  const option = (flag: string, fallback: number) => {
    const at = process.argv.indexOf(flag);
    return at === -1 ? fallback : Number(process.argv[at + 1]);
  };
  const sql = connect(url, 1);
  try {
    const report = await measureNameRecall(sql, option('--per-class', 40), option('--seed', 27));
    process.stdout.write(`${recallTables(report)}\n\nMissed, for example:\n`);
    for (const { script, kind, typo, name } of report.missed) {
      process.stdout.write(`- ${script}, ${kind}: ${typo} (meant ${name})\n`);
    }
  } finally {
    await sql.end({ timeout: 5 });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
