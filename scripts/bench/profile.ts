import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/config.ts';

/**
 * `npm run bench:profile -- [bench options]`: runs the benchmark (scripts/bench/run.ts, given
 * options) with the service under V8's sampling CPU profiler, then prints where the service
 * spent its CPU: the top functions by self time and the same time grouped by where the code
 * lives (a package, Node's own code, this project's src/, the garbage collector). The profile
 * itself is kept for Chrome's or VS Code's flame chart. docs/benchmarks.md quotes these tables.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const TOP = 25;

export function summarize(profile: CpuProfile): { functions: [string, number][]; places: [string, number][] } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + Math.max(profile.timeDeltas[i] ?? 0, 0));
  });
  const functions = new Map<string, number>();
  const places = new Map<string, number>();
  let total = 0;
  for (const [id, micros] of selfMicros) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') continue;
    total += micros;
    const where = url === '' ? '' : ` ${shortUrl(url)}:${lineNumber + 1}`;
    const name = `${functionName || '(anonymous)'}${where}`;
    functions.set(name, (functions.get(name) ?? 0) + micros);
    places.set(placeOf(functionName, url), (places.get(placeOf(functionName, url)) ?? 0) + micros);
  }
  const share = (entries: Map<string, number>) =>
    [...entries].sort((a, b) => b[1] - a[1]).map(([name, micros]) => [name, micros / total] as [string, number]);
  return { functions: share(functions).slice(0, TOP), places: share(places) };
}

function shortUrl(url: string): string {
  const file = url.replace(/^file:\/\//, '');
  const modules = file.lastIndexOf('/node_modules/');
  if (modules >= 0) return file.slice(modules + '/node_modules/'.length);
  return file.startsWith(projectRoot) ? path.relative(projectRoot, file) : file;
}

/** The package, Node's own code, the project's src/ folder, or V8 itself (GC, the compiler). */
function placeOf(functionName: string, url: string): string {
  if (url === '') return functionName.startsWith('(') ? `V8 ${functionName}` : 'V8 / native';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const file = shortUrl(url);
  if (url.includes('/node_modules/')) {
    const parts = file.split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const parts = file.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}/` : file;
}

function table(title: string, rows: [string, number][]): string {
  const lines = rows.map(([name, share]) => `| ${name.replace(/\|/g, '\\|')} | ${(share * 100).toFixed(1)} % |`);
  return [`| ${title} | share of busy CPU |`, '| :-- | --: |', ...lines].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `--save <label>`: also write the tables to bench/profile-<label>.md, which docs/benchmarks.md shows.
  const args = process.argv.slice(2);
  const at = args.indexOf('--save');
  const label = at === -1 ? undefined : args.splice(at, 2)[1];
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-profile-'));
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench/run.ts', ...args], {
    cwd: projectRoot,
    env: { ...process.env, BENCH_CPU_PROFILE: directory },
    stdio: 'inherit',
  });
  // The service's profile is the largest of those written (bare Hono writes one too).
  const files = fs
    .readdirSync(directory)
    .filter((file) => file.endsWith('.cpuprofile'))
    .map((file) => path.join(directory, file))
    .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
  if (files.length === 0) {
    console.error(`no profile was written (the benchmark exited with ${run.status})`);
    process.exit(1);
  }
  const { functions, places } = summarize(JSON.parse(fs.readFileSync(files[0], 'utf8')));
  const text = [
    `Profile of the service, \`npm run bench:profile -- ${args.join(' ')}\`:`,
    '',
    table('where the code lives', places.slice(0, 12)),
    '',
    table('function (self time)', functions.slice(0, 15)),
    '',
  ].join('\n');
  console.log(`\nThe profile: ${files[0]}\n\n${text}`);
  if (label !== undefined) {
    const file = path.join(projectRoot, 'bench', `profile-${label}.md`);
    fs.writeFileSync(file, text);
    console.log(`Wrote ${path.relative(projectRoot, file)}`);
  }
  process.exit(run.status ?? 1);
}
