import { type ChildProcess, spawn } from 'node:child_process';
import readline from 'node:readline';
import { projectRoot } from '../../src/config.ts';

/** The real service process (`src/main.ts`, what `npm start` runs), on a given database. */
export interface ServiceProcess {
  url: string;
  /** The demo account's key, printed once at the first start (null for a later process on the same database). */
  demoKey: string | null;
  /** Its error log since `mark()`: lines on stderr, and JSON log lines at level error or fatal. */
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

export async function startService(
  databaseUrl: string,
  log: (line: string) => void,
  { env = {} }: ServiceOptions = {},
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: projectRoot,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', DEMO_DATA: 'on', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Whole lines (a chunk may end mid-line): the service's JSON log lines must parse.
  const stdoutLines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
  const stderrLines = readline.createInterface({ input: child.stderr, crlfDelay: Infinity });
  const startup: string[] = [];
  const errors: string[] = [];
  stderrLines.on('line', (line) => line && errors.push(line));
  stdoutLines.on('line', (line) => isErrorLogLine(line) && errors.push(line));
  const started = await new Promise<{ url: string; demoKey: string | null }>((resolve, reject) => {
    let url: string | undefined;
    const timer = setTimeout(() => fail(new Error('the service did not start within 180 s')), 180_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(new Error(`${error.message}\n${[...startup, ...errors].join('\n')}`));
    };
    child.once('exit', (code) => fail(new Error(`the service exited with code ${code} before it was ready`)));
    const onStartupLine = (line: string) => {
      startup.push(line);
      url ??= LISTENING.exec(line)?.[1];
      const demoKey = DEMO_KEY.exec(line)?.[1] ?? (DEMO_EXISTS.test(line) ? null : undefined);
      if (url && demoKey !== undefined) {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        stdoutLines.off('line', onStartupLine);
        resolve({ url, demoKey });
      }
    };
    stdoutLines.on('line', onStartupLine);
  });
  log(`Service (src/main.ts) listening on ${started.url}`);
  return {
    ...started,
    mark: () => errors.length,
    errorsSince: (mark) => errors.slice(mark),
    stop: () => stopProcess(child),
  };
}

/** A structured log line (src/observability/logger.ts) of level error or fatal: a 500, or worse. */
function isErrorLogLine(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    const { level } = JSON.parse(line) as { level?: unknown };
    return level === 'error' || level === 'fatal';
  } catch {
    return false;
  }
}

/** SIGTERM, then SIGKILL after 15 s; resolves when the process has exited. */
export function stopProcess(child: ChildProcess): Promise<void> {
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
