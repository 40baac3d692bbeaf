/**
 * A pg_auto_failover formation on this machine, for the fail-over test and its measurements
 * (docs/scaling.md, "High availability"): a monitor, two data nodes (a primary and its synchronous
 * secondary) and pgbouncer in transaction mode in front of them, each on a free port of 127.0.0.1,
 * in a temporary folder. pg_autoctl refuses to run as root: as root, everything runs as the user
 * `postgres` (runuser). The tools come from Debian (scripts/ha-tools.sh installs them).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { freePort } from './streaming-replica.ts';

const PG_CTL = '/usr/lib/postgresql/15/bin/pg_ctl';

/**
 * The monitor's health checks, tuned so that losing a whole node fails over within 30 s
 * (defaults: a check every 5 s, unhealthy after 20 s, 30 s waiting for the old primary to demote).
 * The keepers' network_partition_timeout (KEEPER_PARTITION_TIMEOUT_S) stays below the demote
 * timeout: a primary cut off from the monitor and its standby demotes itself before the standby
 * is promoted, so two primaries never take writes.
 */
export const MONITOR_SETTINGS = {
  'pgautofailover.health_check_period': 1000,
  'pgautofailover.health_check_timeout': 1000,
  'pgautofailover.health_check_max_retries': 1,
  'pgautofailover.health_check_retry_delay': 500,
  'pgautofailover.node_considered_unhealthy_timeout': 4000,
  'pgautofailover.primary_demote_timeout': 8000,
};
export const KEEPER_PARTITION_TIMEOUT_S = 5;

/** pgbouncer's own timeouts: a call waits at most this long for a server (then 08P01, a 503). */
const POOLER_SETTINGS = {
  pool_mode: 'transaction',
  max_client_conn: 1000,
  default_pool_size: 40,
  server_connect_timeout: 2,
  server_login_retry: 1,
  query_wait_timeout: 5,
  // postgres.js sends these as startup parameters; pgbouncer 1.18 cannot pass them on per client,
  // so the [databases] line's connect_query sets them on each server connection instead.
  ignore_startup_parameters: 'extra_float_digits,jit,statement_timeout',
};

export interface HaNode {
  name: string;
  port: number;
  pgdata: string;
  /** The running `pg_autoctl` of the node (absent while the node is stopped). */
  process?: ChildProcess;
}

export interface HaCluster {
  dir: string;
  database: string;
  monitorUrl: string;
  nodes: HaNode[];
  /** Both data nodes, libpq's multi-host form: the service finds the primary itself. */
  directUrl: string;
  /** pgbouncer's pool of `database`, with postgres.js's prepared statements off. */
  poolerUrl: string;
  /** pgbouncer's admin console. */
  poolerAdminUrl: string;
  poolerIni: string;
  /** The primary, as the monitor names it. */
  primary(): Promise<HaNode>;
  /** Each node's reported state on the monitor. */
  states(): Promise<Record<string, string>>;
  /** `kill -9` of the node's postmaster: its keeper restarts it, or the monitor fails over. */
  killPostgres(node: HaNode): void;
  /** `kill -9` of every process of the node (keeper and PostgreSQL), as a machine lost. */
  stopNode(node: HaNode): void;
  /** `pg_autoctl run` again: the engine rewinds it and it rejoins as the secondary. */
  rejoin(node: HaNode): void;
  /** Resolves when one node is primary and the other secondary (synchronous again). */
  healthy(timeoutMs: number): Promise<void>;
  remove(): Promise<void>;
}

function userIds(name: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

export async function startHaCluster({ log = () => {} }: { log?: (line: string) => void } = {}): Promise<HaCluster> {
  const root = process.getuid?.() === 0;
  const owner = root ? userIds('postgres') : undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-ha-'));
  if (owner) fs.chownSync(dir, owner.uid, owner.gid);
  const env = { ...process.env, XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_DATA_HOME: path.join(dir, 'share') };
  const command = (args: string[]): [string, string[]] =>
    root ? ['runuser', ['-u', 'postgres', '--', ...args]] : [args[0], args.slice(1)];
  const run = (args: string[]) => {
    const [file, rest] = command(args);
    return execFileSync(file, rest, { env, cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  };
  const children = new Set<ChildProcess>();
  const background = (args: string[], logName: string): ChildProcess => {
    const [file, rest] = command(args);
    const out = fs.openSync(path.join(dir, logName), 'a');
    const child = spawn(file, rest, { env, cwd: dir, stdio: ['ignore', out, out], detached: true });
    fs.closeSync(out);
    children.add(child);
    child.once('exit', () => children.delete(child));
    return child;
  };

  const database = 'alk';
  const monitorPort = await freePort();
  const monitorDir = path.join(dir, 'monitor');
  const monitorUrl = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
  run([
    'pg_autoctl',
    'create',
    'monitor',
    '--pgdata',
    monitorDir,
    '--pgport',
    String(monitorPort),
    '--hostname',
    '127.0.0.1',
    '--auth',
    'trust',
    '--no-ssl',
    '--pgctl',
    PG_CTL,
  ]);
  background(['pg_autoctl', 'run', '--pgdata', monitorDir], 'monitor.log');
  const monitorAdmin = postgres(`postgres://postgres@127.0.0.1:${monitorPort}/pg_auto_failover`, {
    max: 1,
    onnotice: () => {},
    connect_timeout: 2,
  });
  const monitor = postgres(monitorUrl, { max: 2, onnotice: () => {}, connect_timeout: 2 });
  await until(() => monitor`SELECT 1`.then(() => true), 30_000, 'the monitor answers');
  for (const [name, value] of Object.entries(MONITOR_SETTINGS))
    await monitorAdmin.unsafe(`ALTER SYSTEM SET ${name} = ${value}`);
  await monitorAdmin`SELECT pg_reload_conf()`;
  log('monitor up');

  const nodes: HaNode[] = [];
  const states = async () => {
    const rows = await monitor<{ nodename: string; reportedstate: string }[]>`
      SELECT nodename, reportedstate FROM pgautofailover.node`;
    return Object.fromEntries(rows.map((row) => [row.nodename, row.reportedstate]));
  };
  const keeperArgs = (node: HaNode) => [
    'pg_autoctl',
    'create',
    'postgres',
    '--pgdata',
    node.pgdata,
    '--pgport',
    String(node.port),
    '--hostname',
    '127.0.0.1',
    '--name',
    node.name,
    '--auth',
    'trust',
    '--no-ssl',
    '--pgctl',
    PG_CTL,
    '--monitor',
    monitorUrl,
    '--dbname',
    database,
    '--run',
  ];
  for (const name of ['node1', 'node2']) {
    const node: HaNode = { name, port: await freePort(), pgdata: path.join(dir, name) };
    nodes.push(node);
    node.process = background(keeperArgs(node), `${name}.log`);
    const wanted = name === 'node1' ? ['single'] : ['secondary'];
    // The standby's pg_basebackup waits for a checkpoint of the primary: ask for one.
    await until(
      async () => {
        if (name !== 'node1') await checkpoint(nodes[0]);
        return wanted.includes((await states())[name]);
      },
      120_000,
      `${name} is ${wanted.join(' or ')}`,
    );
    log(`${name} up`);
  }
  for (const node of nodes)
    run([
      'pg_autoctl',
      'config',
      'set',
      '--pgdata',
      node.pgdata,
      'timeout.network_partition_timeout',
      String(KEEPER_PARTITION_TIMEOUT_S),
    ]);

  const poolerPort = await freePort();
  const poolerIni = path.join(dir, 'pgbouncer.ini');
  const userlist = path.join(dir, 'userlist.txt');
  fs.writeFileSync(userlist, '"postgres" ""\n');
  fs.writeFileSync(
    poolerIni,
    [
      '[databases]',
      `${database} = host=127.0.0.1 port=${nodes[0].port} dbname=${database} ` +
        `connect_query='SET jit = off; SET statement_timeout = 5000'`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${poolerPort}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${userlist}`,
      'admin_users = postgres',
      ...Object.entries(POOLER_SETTINGS).map(([name, value]) => `${name} = ${value}`),
      `logfile = ${path.join(dir, 'pgbouncer.log')}`,
      '',
    ].join('\n'),
  );
  if (owner) for (const file of [poolerIni, userlist]) fs.chownSync(file, owner.uid, owner.gid);
  background(['pgbouncer', poolerIni], 'pgbouncer.out');
  const poolerAdminUrl = `postgres://postgres@127.0.0.1:${poolerPort}/pgbouncer`;
  const poolerUrl = `postgres://postgres@127.0.0.1:${poolerPort}/${database}?prepare=false`;
  const probe = postgres(poolerUrl, { max: 1, onnotice: () => {}, connect_timeout: 2 });
  await until(() => probe`SELECT 1`.then(() => true), 20_000, 'pgbouncer answers');
  await probe.end();
  log('pgbouncer up');

  const byName = (name: string) => nodes.find((node) => node.name === name)!;
  const descendants = (pid: number): number[] => {
    const found: number[] = [pid];
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        if (ppid === pid) found.push(...descendants(Number(entry)));
      } catch {
        // the process ended meanwhile
      }
    }
    return found;
  };
  const killAll = (pids: number[]) => {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  const postmasterPid = (node: HaNode) =>
    Number(fs.readFileSync(path.join(node.pgdata, 'postmaster.pid'), 'utf8').split('\n')[0]);

  const hosts = nodes.map((node) => `127.0.0.1:${node.port}`).join(',');
  return {
    dir,
    database,
    monitorUrl,
    nodes,
    directUrl: `postgres://postgres@${hosts}/${database}?target_session_attrs=read-write`,
    poolerUrl,
    poolerAdminUrl,
    poolerIni,
    async primary() {
      const [row] = await monitor<{ primary_name: string }[]>`
        SELECT primary_name FROM pgautofailover.get_primary('default', 0)`;
      return byName(row.primary_name);
    },
    states,
    killPostgres(node) {
      killAll([postmasterPid(node)]);
    },
    stopNode(node) {
      const keeper = node.process?.pid;
      // The postmaster and its backends, then the keeper's tree: nothing of the node is left.
      const postmaster = postmasterPid(node);
      killAll([...(keeper ? descendants(keeper) : []), ...descendants(postmaster)]);
      node.process = undefined;
    },
    rejoin(node) {
      node.process = background(['pg_autoctl', 'run', '--pgdata', node.pgdata], `${node.name}.log`);
    },
    async healthy(timeoutMs) {
      await until(
        async () => {
          const now = Object.values(await states()).sort();
          return now.join(',') === 'primary,secondary';
        },
        timeoutMs,
        'one node is primary and the other secondary',
      );
    },
    async remove() {
      for (const child of children) if (child.pid) killAll(descendants(child.pid));
      for (const node of [...nodes, { pgdata: monitorDir }]) {
        try {
          killAll(descendants(postmasterPid(node as HaNode)));
        } catch {
          // not running
        }
      }
      await Promise.allSettled([monitor.end({ timeout: 1 }), monitorAdmin.end({ timeout: 1 })]);
      if (!process.env.HA_KEEP) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function checkpoint(node: HaNode): Promise<void> {
  const sql = postgres(`postgres://postgres@127.0.0.1:${node.port}/postgres`, {
    max: 1,
    onnotice: () => {},
    connect_timeout: 2,
  });
  await sql`CHECKPOINT`.catch(() => {});
  await sql.end({ timeout: 1 });
}

/** Polls `check` every 200 ms until it is true (a rejection counts as false). */
export async function until(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await sleep(200);
  }
}
