import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/config.ts';

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Starts `src/cli/<script>.ts` as operators run it, against the database at `databaseUrl`. */
export function startCli(script: 'ingest' | 'generate-data', args: string[], databaseUrl?: string): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', `src/cli/${script}.ts`, ...args], {
    cwd: projectRoot,
    env: { ...process.env, ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Runs a command line to its end; `input` is written to its standard input. */
export async function runCli(
  script: 'ingest' | 'generate-data',
  args: string[],
  options: { databaseUrl?: string; input?: string | Buffer } = {},
): Promise<CliResult> {
  const child = startCli(script, args, options.databaseUrl);
  return finish(child, options.input);
}

export function finish(child: ChildProcess, input?: string | Buffer): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr!.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  // A command that exits before reading all of its input closes the pipe; that is its business.
  child.stdin!.on('error', () => {});
  child.stdin!.end(input);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** A temporary folder, removed by the returned function. */
export function temporaryFolder(prefix: string): {
  dir: string;
  file: (name: string, content?: string | Buffer) => string;
  remove: () => void;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return {
    dir,
    file: (name, content) => {
      const file = path.join(dir, name);
      if (content !== undefined) fs.writeFileSync(file, content);
      return file;
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** NDJSON text of records, one per line. */
export const ndjson = (records: readonly unknown[]) => records.map((record) => `${JSON.stringify(record)}\n`).join('');
