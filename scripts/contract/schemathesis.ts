import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/config.ts';
import type { FuzzKeys } from './keys.ts';
import type { PythonEnv } from './python-env.ts';

/** One response of the fuzzing run, as alk_fuzz/coverage.py recorded it. */
export interface FuzzRecord {
  operation: string;
  method: string;
  status: number;
  error: string | null;
  key: string;
  mode: string | null;
  phase: string | null;
  request_id: string | null;
  charged: string | null;
  /** The answer replayed the stored response of an earlier call with the same Idempotency-Key. */
  replayed: boolean;
}

export interface FuzzSettings {
  maxExamples: number;
  seed: number;
  workers: number;
}

export interface FuzzResult {
  passed: boolean;
  /** HTTP requests on the wire, checks' own probes and the schema download included. */
  requests: number;
  seconds: number;
  records: FuzzRecord[];
}

const HOOKS_DIR = path.join(projectRoot, 'test', 'contract', 'schemathesis');

/** `st run` against the served contract with every check, both modes and the alk_fuzz hooks. */
export async function runSchemathesis(
  python: PythonEnv,
  baseUrl: string,
  keys: FuzzKeys,
  outputDir: string,
  settings: FuzzSettings,
): Promise<FuzzResult> {
  fs.mkdirSync(outputDir, { recursive: true });
  for (const file of ['responses.jsonl', 'requests.json']) fs.rmSync(path.join(outputDir, file), { force: true });
  const args = [
    '--config-file',
    path.join(HOOKS_DIR, 'schemathesis.toml'),
    'run',
    `${baseUrl}/openapi.json`,
    '--checks',
    'all',
    '--mode',
    'all',
    '--max-examples',
    String(settings.maxExamples),
    '--seed',
    String(settings.seed),
    '--workers',
    String(settings.workers),
    '--report',
    'junit',
    '--report-junit-path',
    path.join(outputDir, 'schemathesis-junit.xml'),
  ];
  const env = python.env({
    SCHEMATHESIS_HOOKS: 'alk_fuzz',
    PYTHONPATH: HOOKS_DIR,
    ALK_FUZZ_KEYS: JSON.stringify(keys),
    ALK_FUZZ_OUTPUT: outputDir,
    NO_COLOR: '1',
  });
  const started = performance.now();
  const exitCode = await new Promise<number>((resolve, reject) => {
    // Run inside the output folder: schemathesis and hypothesis keep their caches (crash replays) in the working
    // directory.
    const child = spawn(python.bin('st'), args, { cwd: outputDir, env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? 1));
  });
  const seconds = (performance.now() - started) / 1000;
  const recordsFile = path.join(outputDir, 'responses.jsonl');
  const countFile = path.join(outputDir, 'requests.json');
  const records = fs.existsSync(recordsFile)
    ? fs
        .readFileSync(recordsFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as FuzzRecord)
    : [];
  const requests = fs.existsSync(countFile)
    ? (JSON.parse(fs.readFileSync(countFile, 'utf8')) as { requests: number }).requests
    : 0;
  return { passed: exitCode === 0, requests, seconds, records: uniqueByRequestId(records) };
}

/** A response re-checked while schemathesis shrinks or replays a case is recorded again; keep one. */
function uniqueByRequestId(records: FuzzRecord[]): FuzzRecord[] {
  const seen = new Set<string>();
  return records.filter((record) => {
    if (record.request_id === null) return true;
    if (seen.has(record.request_id)) return false;
    seen.add(record.request_id);
    return true;
  });
}
