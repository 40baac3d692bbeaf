// @module-tag database-free
// @module-tag runtime
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/config.ts';
import { LOG_FLUSH_MS } from '../../src/observability/logger.ts';

/**
 * The request log as the service writes it (src/observability/logger.ts, `bufferedOutput`):
 * in blocks, yet no line waits long, and none is lost when the process ends, even on an
 * uncaught error. Each case runs a real process writing to a real file.
 */
describe('request log output', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  /** A process that logs `lines` lines to `file` through the service's logger, then does `then`. */
  function logger(file: string, lines: number, then: 'wait' | 'throw' | 'exit'): ChildProcess {
    const ending = {
      wait: 'setTimeout(() => {}, 60_000);',
      throw: "throw new Error('boom');",
      exit: 'process.exit(0);',
    }[then];
    const script = `
      import fs from 'node:fs';
      import { bufferedOutput, createLogger } from './src/observability/logger.ts';
      const output = bufferedOutput(fs.openSync(${JSON.stringify(file)}, 'w'));
      const logger = createLogger({ level: 'info', destination: output });
      for (let i = 0; i < ${lines}; i++) logger.info({ line: i }, 'request');
      ${ending}
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: projectRoot,
      stdio: 'ignore',
    });
    children.push(child);
    return child;
  }
  const linesIn = (file: string) =>
    fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  const exited = (child: ChildProcess) => new Promise((resolve) => child.once('exit', resolve));
  const tmp = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'alk-log-')), 'requests.jsonl');

  it('a line logged at low traffic is written within the flush interval, the process still running', async () => {
    const file = tmp();
    logger(file, 1, 'wait');
    await expect.poll(() => linesIn(file).length, { timeout: 10_000 + LOG_FLUSH_MS }).toBe(1);
    expect(JSON.parse(linesIn(file)[0])).toMatchObject({ level: 'info', line: 0, msg: 'request' });
  });

  it('every line buffered is written when the process exits, and when it dies of an uncaught error', async () => {
    for (const then of ['exit', 'throw'] as const) {
      const file = tmp();
      const child = logger(file, 1_000, then);
      await exited(child);
      const lines = linesIn(file);
      expect(lines, then).toHaveLength(1_000);
      expect(JSON.parse(lines[999]).line).toBe(999);
    }
  });
});
