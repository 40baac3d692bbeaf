import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/config.ts';

/** The project-local Python environment of the contract step (git-ignored `.venv/`). */
export interface PythonEnv {
  /** Absolute path of an executable inside the environment (`python`, `st`, `openapi-python-client`). */
  bin(name: string): string;
  /** `process.env` with the environment's executables first on PATH. */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
}

const VENV = path.join(projectRoot, '.venv');
const REQUIREMENTS = path.join(projectRoot, 'test', 'contract', 'requirements.txt');
const STAMP = path.join(VENV, '.requirements.sha256');

/**
 * Creates `.venv/` with the pinned requirements, or reuses it when it was made from the same
 * requirements file with the same Python: a clean clone installs once, later runs start at once.
 */
export function ensurePythonEnv(log: (line: string) => void): PythonEnv {
  const python = process.env.PYTHON ?? 'python3';
  const version = execFileSync(python, ['--version'], { encoding: 'utf8' }).trim();
  const wanted = createHash('sha256').update(version).update(fs.readFileSync(REQUIREMENTS)).digest('hex');
  const bin = (name: string) => path.join(VENV, 'bin', name);
  if (!fs.existsSync(STAMP) || fs.readFileSync(STAMP, 'utf8') !== wanted || !fs.existsSync(bin('python'))) {
    log(`Installing the pinned Python tools into .venv/ (${version})`);
    fs.rmSync(VENV, { recursive: true, force: true });
    execFileSync(python, ['-m', 'venv', VENV], { stdio: 'inherit' });
    execFileSync(
      bin('python'),
      ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-input', '-r', REQUIREMENTS],
      {
        stdio: ['ignore', 'inherit', 'pipe'],
      },
    );
    fs.writeFileSync(STAMP, wanted);
  }
  return {
    bin,
    env: (extra = {}) => ({
      ...process.env,
      PATH: `${path.join(VENV, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`,
      ...extra,
    }),
  };
}
