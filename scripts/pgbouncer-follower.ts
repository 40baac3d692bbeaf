/**
 * Keeps pgbouncer pointed at the pg_auto_failover primary (docs/scaling.md, "High availability"):
 * the service processes name pgbouncer only, and this process switches pgbouncer's `[databases]`
 * entry to the new primary when the monitor says the primary moved.
 *
 *   npx tsx scripts/pgbouncer-follower.ts --monitor postgres://autoctl_node@monitor:5432/pg_auto_failover \
 *     --ini /etc/pgbouncer/pgbouncer.ini --database alk --admin postgres://postgres@127.0.0.1:6432/pgbouncer
 *
 * The monitor publishes every state change on the channel `state` (LISTEN/NOTIFY) and names the
 * primary with `pgautofailover.get_primary()`; the follower asks it on each notification and every
 * second (a notification sent while the follower reconnects is lost), rewrites the `host=` and
 * `port=` of the database's line in pgbouncer.ini, and tells pgbouncer `RELOAD` (it reads the
 * file again) and `RECONNECT` (its server connections to the old primary are closed as they are
 * released). pgbouncer keeps the clients' connections throughout.
 */
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import postgres from 'postgres';

export interface FollowerOptions {
  /** The monitor's database (`pg_autoctl show uri --monitor`). */
  monitorUrl: string;
  /** pgbouncer.ini, whose `[databases]` line for `database` is rewritten. */
  ini: string;
  /** The database's name in pgbouncer's `[databases]`. */
  database: string;
  /** pgbouncer's admin console (a user of `admin_users`, database `pgbouncer`). */
  adminUrl: string;
  /** The pg_auto_failover formation and group (`default`, 0). */
  formation?: string;
  group?: number;
  log?: (line: string) => void;
}

export interface Follower {
  /** `host:port` that pgbouncer points at now. */
  readonly target: () => string | undefined;
  /** Times the follower switched pgbouncer to another server. */
  readonly switches: () => number;
  /** Asks the monitor now (and switches when the primary moved). */
  check(): Promise<void>;
  stop(): Promise<void>;
}

/** The `host=… port=…` of the database's line of pgbouncer.ini, replaced by `host`, `port`. */
export function pointDatabaseAt(ini: string, database: string, host: string, port: number): string {
  const line = new RegExp(`^(\\s*${database}\\s*=.*)$`, 'm');
  const match = line.exec(ini);
  if (!match) throw new Error(`pgbouncer.ini has no [databases] line for ${database}`);
  const pointed = match[1].replace(/\bhost=\S+/, `host=${host}`).replace(/\bport=\d+/, `port=${port}`);
  return ini.replace(line, pointed);
}

/** Where the database's line of pgbouncer.ini points, `host:port`. */
export function databaseTarget(ini: string, database: string): string | undefined {
  const line = new RegExp(`^\\s*${database}\\s*=(.*)$`, 'm').exec(ini)?.[1];
  const host = line && /\bhost=(\S+)/.exec(line)?.[1];
  const port = line && /\bport=(\d+)/.exec(line)?.[1];
  return host && port ? `${host}:${port}` : undefined;
}

export async function followPrimary(options: FollowerOptions): Promise<Follower> {
  const { monitorUrl, ini, database, adminUrl, formation = 'default', group = 0, log = () => {} } = options;
  const monitor = postgres(monitorUrl, { max: 1, fetch_types: false, connect_timeout: 2, onnotice: () => {} });
  const admin = postgres(adminUrl, { max: 1, fetch_types: false, prepare: false, connect_timeout: 2 });
  let switches = 0;
  let checking: Promise<void> | undefined;
  const once = async () => {
    const rows = await monitor<{ primary_host: string; primary_port: number }[]>`
      SELECT primary_host, primary_port FROM pgautofailover.get_primary(${formation}, ${group})`;
    if (rows.length === 0) return; // no primary now: pgbouncer keeps its target until there is one
    const { primary_host: host, primary_port: port } = rows[0];
    const text = fs.readFileSync(ini, 'utf8');
    if (databaseTarget(text, database) === `${host}:${port}`) return;
    fs.writeFileSync(ini, pointDatabaseAt(text, database, host, port));
    await admin.unsafe('RELOAD').simple();
    await admin.unsafe(`RECONNECT ${database}`).simple();
    switches += 1;
    log(`pgbouncer now points ${database} at the primary ${host}:${port}`);
  };
  const check = () => {
    checking ??= once()
      .catch((error: Error) => log(`could not follow the primary: ${error.message}`))
      .finally(() => {
        checking = undefined;
      });
    return checking;
  };
  const listening = await monitor
    .listen('state', () => void check())
    .catch((error: Error) => {
      log(`no notifications from the monitor (${error.message}); asking every second`);
      return undefined;
    });
  const timer = setInterval(() => void check(), 1_000);
  await check();
  return {
    target: () => databaseTarget(fs.readFileSync(ini, 'utf8'), database),
    switches: () => switches,
    check,
    async stop() {
      clearInterval(timer);
      await checking;
      await listening?.unlisten().catch(() => {});
      await Promise.all([monitor.end({ timeout: 1 }), admin.end({ timeout: 1 })]);
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string) => {
    const at = process.argv.indexOf(`--${name}`);
    const value = at > 0 ? process.argv[at + 1] : undefined;
    if (!value) {
      console.error(
        `usage: pgbouncer-follower --monitor URL --ini FILE --database NAME --admin URL (missing --${name})`,
      );
      process.exit(2);
    }
    return value;
  };
  const follower = await followPrimary({
    monitorUrl: arg('monitor'),
    ini: arg('ini'),
    database: arg('database'),
    adminUrl: arg('admin'),
    log: (line) => console.log(`${new Date().toISOString()} ${line}`),
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void follower.stop());
}
