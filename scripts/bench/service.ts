import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { projectRoot } from '../../src/config.ts';
import { stopProcess } from '../contract/service.ts';

/**
 * Environment of the service under load, on top of the harness's own (DB_POOL_SIZE and the
 * like pass through). Anything that would throttle or reshape the measured path is switched off
 * here: when per-key rate limiting lands (issue 6), disable it in this object, or every cell
 * measures 429s (the harness counts them as errors, so a forgotten switch shows in the table).
 */
export const SERVICE_ENV: Readonly<Record<string, string>> = {
  HOST: '127.0.0.1',
  PORT: '0',
  DEMO_DATA: 'off',
  // The benchmark sends thousands of calls a second on one key: the per-key rate limit would
  // answer most of them 429. Off, as RATE_LIMIT_PER_MINUTE=0 documents for benchmarks.
  RATE_LIMIT_PER_MINUTE: '0',
  // One log line per request would be written to a pipe this process reads while it also drives
  // the load; failures (warn and above) are still logged and checked.
  LOG_LEVEL: 'warn',
};

export interface BenchService {
  url: string;
  pid: number;
  /** Lines the service wrote to stderr (its error log). */
  stderr: string[];
  stop(): Promise<void>;
}

/** Starts scripts/bench/server.ts as its own process (node + tsx, as `npm start` runs the service). */
export async function startBenchService(databaseUrl: string): Promise<BenchService> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/server.ts'], {
    cwd: projectRoot,
    env: { ...process.env, ...SERVICE_ENV, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.push(...chunk.split('\n').filter(Boolean)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('the bench service did not start within 120 s')), 120_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(new Error(`${error.message}\n${stderr.join('\n')}`));
    };
    child.once('exit', (code) => fail(new Error(`the bench service exited with code ${code} before it was ready`)));
    let buffered = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const line = buffered.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve((JSON.parse(line) as { url: string }).url);
    });
  });
  return { url, pid: child.pid!, stderr, stop: () => stopProcess(child) };
}

/** Resident memory of a process, from /proc/<pid>/status (VmRSS), in MB; null where /proc is absent. */
export function residentMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's resident memory every `everyMs`; `window()` gives the peak since the last call. */
export class RssSampler {
  private timer: NodeJS.Timeout;
  private windowPeak: number | null = null;
  peak: number | null = null;

  constructor(
    private readonly pid: number,
    everyMs = 100,
  ) {
    this.timer = setInterval(() => this.sample(), everyMs);
    this.timer.unref();
  }

  private sample(): void {
    const mb = residentMb(this.pid);
    if (mb === null) return;
    this.windowPeak = Math.max(this.windowPeak ?? 0, mb);
    this.peak = Math.max(this.peak ?? 0, mb);
  }

  /** The peak since the previous call (sampled once more now). */
  window(): number | null {
    this.sample();
    const peak = this.windowPeak;
    this.windowPeak = null;
    return peak;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
