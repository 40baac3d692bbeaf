// @module-tag runtime
import fs from 'node:fs';
import { Agent, request } from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contractOperations } from '../../src/contract/operations.ts';
import { connect } from '../../src/data/client.ts';
import { freePort, type Started, startService } from '../support/service.ts';

/**
 * SIGTERM (what `docker stop`, systemd and Kubernetes send): the service stops accepting
 * connections at once, lets the requests in flight finish, then closes its pool and stops the
 * embedded PostgreSQL it started, cleanly, and exits 0. The request in flight is made slow for
 * real: the lookup waits for a lock that another connection holds until after the signal.
 */

/** `DBState` in `global/pg_control` (PostgreSQL 15: after two uint32 and a uint64 at offset 16). */
const DB_SHUTDOWNED = 1;
const DB_IN_PRODUCTION = 6;
const clusterState = (dataDir: string) => fs.readFileSync(path.join(dataDir, 'global', 'pg_control')).readInt32LE(16);

function get(
  agent: Agent,
  url: string,
  key: string,
): Promise<{ status: number; body: any; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    request(url, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, body: JSON.parse(text), connection: res.headers.connection }),
      );
    })
      .on('error', reject)
      .end();
  });
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

describe('SIGTERM', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-sigterm-'));
  fs.chmodSync(dir, 0o755);
  let service: Started | undefined;
  afterAll(async () => {
    if (service && (await Promise.race([service.exited, 'running'])) === 'running') await service.stop();
    // After a failure, the PostgreSQL the service started may have outlived it.
    const pidFile = path.join(dir, 'pg', 'postmaster.pid');
    if (fs.existsSync(pidFile)) {
      try {
        process.kill(Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]), 'SIGINT');
      } catch {}
      for (let waited = 0; fs.existsSync(pidFile) && waited < 10_000; waited += 100)
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lets the request in flight finish, refuses new connections, ' +
    'stops the embedded database cleanly and exits 0', async () => {
    const dataDir = path.join(dir, 'pg');
    const pgPort = await freePort();
    service = await startService({
      DATABASE_URL: undefined,
      EMBEDDED_PG_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      DEMO_DATA: 'off',
      PENDING_REFUNDS_DIR: path.join(dir, 'refunds'),
    });
    const key = /Demo API key[^:]*: (alk_\S+)/.exec(service.output)![1];
    const port = Number(new URL(service.url).port);
    expect(clusterState(dataDir)).toBe(DB_IN_PRODUCTION);

    // An idle keep-alive connection must not hold the shutdown up.
    const agent = new Agent({ keepAlive: true });
    expect((await get(agent, `${service.url}/api/v1/account`, key)).status).toBe(200);

    const admin = connect(`postgres://postgres:postgres@127.0.0.1:${pgPort}/alk`, 2);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const lock = admin.begin(async (tx) => {
      await tx`LOCK TABLE identifiers IN ACCESS EXCLUSIVE MODE`;
      locked();
      await held;
    });
    await lockTaken;
    let answered = false;
    const inFlight = get(new Agent({ keepAlive: true }), `${service.url}/api/v1/advertiser?name=Acme`, key).finally(
      () => (answered = true),
    );
    for (let waited = 0; ; waited += 50) {
      const waiting = await admin`SELECT 1 FROM pg_stat_activity WHERE application_name = 'advertiser-lookup-api'
          AND wait_event_type = 'Lock'`;
      if (waiting.length > 0) break;
      if (waited > 10_000) throw new Error('the lookup never waited for the lock');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    process.kill(service.pid, 'SIGTERM');
    for (let waited = 0; !(await refused(port)); waited += 50) {
      if (waited > 5_000) throw new Error('the service still accepts connections 5 s after SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(answered, 'the request in flight is still running when new connections are refused').toBe(false);
    expect(clusterState(dataDir)).toBe(DB_IN_PRODUCTION);

    release();
    await lock;
    await admin.end();
    const response = await inFlight;
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({
      error: 'not_found',
      credits_charged: contractOperations.find((operation) => operation.operationId === 'getAdvertiserSummary')!
        .creditCost,
    });
    expect(response.connection).toBe('close');

    const exitedAt = performance.now();
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(performance.now() - exitedAt).toBeLessThan(5_000);
    expect(service.printed()).toContain('SIGTERM: shutting down');
    expect(fs.existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(false);
    expect(clusterState(dataDir)).toBe(DB_SHUTDOWNED);
    agent.destroy();
  }, 60_000);
});
