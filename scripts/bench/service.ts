import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { projectRoot } from '../../src/config.ts';
import { stopProcess } from '../contract/service.ts';

/**
 * The per-key rate limit's quota in the benchmark: on, as it ships, and counted on every call (by
 * the debit statement), but beyond what any cell reaches, so it never answers 429 (the harness
 * counts those as errors, so a quota set too low shows in the table). The baseline's debit
 * statement counts the same limit.
 */
export const BENCH_RATE_LIMIT = { quota: 1_000_000_000, windowSeconds: 60 };

/**
 * Environment of the service under load, on top of the harness's own (DB_POOL_SIZE and the
 * like pass through): the configuration `npm start` ships (metrics, security headers, the
 * request log at its default level, a line per request), but for the rate limit's quota.
 */
export const SERVICE_ENV: Readonly<Record<string, string>> = {
  HOST: '127.0.0.1',
  PORT: '0',
  DEMO_DATA: 'off',
  RATE_LIMIT_PER_MINUTE: String(BENCH_RATE_LIMIT.quota),
  LOG_LEVEL: 'info',
};

export interface BenchService {
  url: string;
  pid: number;
  /** Lines the service wrote to stderr (what it tells people: start, stop, faults). */
  stderr: string[];
  stop(): Promise<void>;
}

/**
 * Starts scripts/bench/server.ts as its own process (node + tsx, as `npm start` runs the
 * service), its request log written to `requestLog` (a file, as a deployment collects it).
 */
export function startBenchService(databaseUrl: string, requestLog: string): Promise<BenchService> {
  return startServerProcess('scripts/bench/server.ts', {
    ...SERVICE_ENV,
    DATABASE_URL: databaseUrl,
    BENCH_REQUEST_LOG: requestLog,
  });
}

/** Starts scripts/bench/bare-hono.ts: the bare Hono cell's server, run like the service. */
export function startBareHono(workMicros = 0): Promise<BenchService> {
  return startServerProcess('scripts/bench/bare-hono.ts', { BENCH_BARE_WORK_US: String(workMicros) });
}

/** A server script as its own process, ready once it printed its URL as one JSON line on standard output. */
export async function startServerProcess(script: string, env: Record<string, string>): Promise<BenchService> {
  // BENCH_CPU_PROFILE=<dir>: the process writes a V8 CPU profile there when it stops
  // (`npm run bench:profile` reads it).
  const profile = process.env.BENCH_CPU_PROFILE;
  const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const child = spawn(process.execPath, [...profiling, '--import', 'tsx', script], {
    cwd: projectRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => stderr.push(...chunk.split('\n').filter(Boolean)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`${script} did not start within 120 s`)), 120_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(new Error(`${error.message}\n${stderr.join('\n')}`));
    };
    child.once('exit', (code) => fail(new Error(`${script} exited with code ${code} before it was ready`)));
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

/** CPU seconds (user and system) a process has used, from /proc/<pid>/stat; null where /proc is absent. */
export function cpuSeconds(pid: number): number | null {
  try {
    // Fields 14 and 15, counted after the command name (which may hold spaces), in clock ticks of 10 ms.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
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
