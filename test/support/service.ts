import { spawn } from 'node:child_process';
import { projectRoot } from '../../src/config.ts';
import { demoCurlLines } from '../../src/demo.ts';

/** How many ready-to-paste calls the first start prints. */
export const DEMO_CURL_LINES = demoCurlLines('http://localhost', 'alk_').length;

export interface Started {
  /** What the service printed until it was ready. */
  output: string;
  /** Everything it printed so far. */
  outputNow(): string;
  url: string;
  pid: number;
  /** Everything it printed so far. */
  printed(): string;
  /** SIGTERM, then its exit code, or the signal that ended it (so a failed expectation names it). */
  stop(): Promise<number | NodeJS.Signals | null>;
  /** Resolves when the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Runs `src/main.ts` as `npm start` does (after its install step) and waits until it listens. */
export function startService(env: Record<string, string | undefined>): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: projectRoot,
      env: { ...process.env, PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.once('exit', (code, signal) => done({ code, signal })),
    );
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (
        match &&
        output.includes('\n', output.indexOf(match[0])) &&
        new RegExp(`(already exists|Try every endpoint:(\\n.*curl.*){${DEMO_CURL_LINES}})`).test(output)
      ) {
        clearTimeout(timer);
        resolve({
          output,
          outputNow: () => output,
          url: match[1],
          pid: child.pid!,
          printed: () => output,
          stop: async () => {
            child.kill('SIGTERM');
            const { code, signal } = await exited;
            // After the exit, the last lines it printed may still be in the pipe: read them first
            // (up to a second: a child process of its own may hold the pipe open longer).
            if (!child.stdout.readableEnded) {
              await new Promise<void>((done) => {
                const grace = setTimeout(done, 1_000);
                child.stdout.once('end', () => {
                  clearTimeout(grace);
                  done();
                });
              });
            }
            return code ?? signal;
          },
          exited,
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with ${code}:\n${output}`));
    });
  });
}

export { freePort } from './ports.ts';
