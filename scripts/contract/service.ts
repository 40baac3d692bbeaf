import { spawn, type ChildProcess } from 'node:child_process';
import { projectRoot } from '../../src/config.ts';

/** The real service process (`src/main.ts`, what `npm start` runs), on a given database. */
export interface ServiceProcess {
  url: string;
  /** The demo account's key, printed once at the first start (null for a later process on the same database). */
  demoKey: string | null;
  /** Lines the service wrote to stderr since `mark()` (its error log). */
  errorsSince(mark: number): string[];
  mark(): number;
  stop(): Promise<void>;
}

const LISTENING = /listening on (http:\/\/\S+)/;
const DEMO_KEY = /Demo API key[^:]*: (alk_[0-9A-Za-z]+)/;
const DEMO_EXISTS = /The demo account already exists/;

export interface ServiceOptions {
  /** Environment of the process beyond the database and the address (e.g. RATE_LIMIT_PER_MINUTE). */
  env?: Record<string, string>;
}

export async function startService(databaseUrl: string, log: (line: string) => void, { env = {} }: ServiceOptions = {}): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'on', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(...chunk.split('\n').filter(Boolean)));
  const started = await new Promise<{ url: string; demoKey: string | null }>((resolve, reject) => {
    let url: string | undefined;
    const timer = setTimeout(() => fail(new Error('the service did not start within 180 s')), 180_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(new Error(`${error.message}\n${[...stdout, ...stderr].join('\n')}`));
    };
    child.once('exit', (code) => fail(new Error(`the service exited with code ${code} before it was ready`)));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) {
        stdout.push(line);
        url ??= LISTENING.exec(line)?.[1];
        const demoKey = DEMO_KEY.exec(line)?.[1] ?? (DEMO_EXISTS.test(line) ? null : undefined);
        if (url && demoKey !== undefined) {
          clearTimeout(timer);
          child.removeAllListeners('exit');
          resolve({ url, demoKey });
        }
      }
    });
  });
  log(`Service (src/main.ts) listening on ${started.url}`);
  return {
    ...started,
    mark: () => stderr.length,
    errorsSince: (mark) => stderr.slice(mark),
    stop: () => stopProcess(child),
  };
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
