// @module-tag runtime
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StreamingPair, startStreamingPair } from '../../scripts/streaming-replica.ts';
import { connect } from '../../src/data/client.ts';
import { isOutcomeUnknown, isUnavailable } from '../../src/data/errors.ts';
import { migrate } from '../../src/data/migrate.ts';
import { databaseServers, followsPrimary, NoPrimary, singleServerUrl } from '../../src/data/primary.ts';
import { PrimaryWatch } from '../../src/data/primary-watch.ts';
import { Metrics } from '../../src/observability/metrics.ts';
import { testApp } from '../support/app.ts';
import { sample } from '../support/metrics.ts';

/** A port of 127.0.0.1 nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP relay to a server that can be cut (its connections closed, new ones refused) and restored. */
async function switchableRelay(targetPort: number) {
  let server: net.Server | undefined;
  const open = new Set<net.Socket>();
  const port = await closedPort();
  return {
    port,
    on: () =>
      new Promise<void>((resolve) => {
        server = net.createServer((client) => {
          const upstream = net.connect(targetPort, '127.0.0.1');
          open.add(client);
          client.on('close', () => open.delete(client));
          client.on('error', () => upstream.destroy());
          upstream.on('error', () => client.destroy());
          client.pipe(upstream).pipe(client);
        });
        server.listen(port, '127.0.0.1', () => resolve());
      }),
    off: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        if (server) server.close(() => resolve());
        else resolve();
        server = undefined;
      }),
  };
}

describe('DATABASE_URL of several servers (docs/product-rules.md R20.1)', () => {
  it('reads the libpq form: each host and port, the first server alone for postgres.js', () => {
    const url = 'postgres://u:p%40ss@h1:5433,h2,[::1]:6000/alk?target_session_attrs=read-write&prepare=false';
    expect(databaseServers(url)).toEqual([
      { host: 'h1', port: 5433 },
      { host: 'h2', port: 5432 },
      { host: '::1', port: 6000 },
    ]);
    expect(followsPrimary(url)).toBe(true);
    expect(followsPrimary('postgres://u@h1:5433/alk')).toBe(false);
    expect(followsPrimary('postgres://u@h1:5433/alk?target_session_attrs=read-write')).toBe(true);
    expect(singleServerUrl(url, { host: 'h2', port: 5432 })).toBe('postgres://u:p%40ss@h2:5432/alk?prepare=false');
  });

  describe('on a primary and its streaming standby', () => {
    let pair: StreamingPair;
    let down: number;
    beforeAll(async () => {
      pair = await startStreamingPair();
      await migrate(pair.primaryUrl);
      down = await closedPort();
    }, 120_000);
    afterAll(() => pair?.remove());

    const port = (url: string) => Number(new URL(url).port);

    it('connects to the primary wherever it is listed, past a server that is down and a standby', async () => {
      const primary = port(pair.primaryUrl);
      for (const order of [
        [down, pair.replicaPort, primary],
        [pair.replicaPort, primary],
        [primary, pair.replicaPort],
      ]) {
        const hosts = order.map((p) => `127.0.0.1:${p}`).join(',');
        const sql = connect(`postgres://postgres@${hosts}/alk?target_session_attrs=read-write`, 2);
        try {
          const [row] = await sql<{ port: number; standby: boolean }[]>`
            SELECT inet_server_port() AS port, pg_is_in_recovery() AS standby`;
          expect(row).toEqual({ port: primary, standby: false });
          // It writes: the standby would refuse (25006).
          await sql`CREATE TEMPORARY TABLE t (x int)`;
        } finally {
          await sql.end({ timeout: 5 });
        }
      }
    });

    it('back after no primary, every call reaches it: no connect timeout, no garbled start-up', async () => {
      const relay = await switchableRelay(port(pair.primaryUrl));
      const sql = connect(`postgres://postgres@127.0.0.1:${relay.port},127.0.0.1:${down}/alk`, 10, {
        connectTimeoutMs: 2_000,
      });
      const outcomes: { at: number; outcome: string }[] = [];
      let stop = false;
      const caller = async () => {
        while (!stop) {
          const at = performance.now();
          const outcome = await sql`SELECT 1`.then(
            () => 'ok',
            (error: { code?: string }) => error.code ?? String(error),
          );
          outcomes.push({ at, outcome });
          if (outcome !== 'ok') await new Promise((resolve) => setTimeout(resolve, 5));
        }
      };
      try {
        await relay.on();
        const callers = Array.from({ length: 12 }, caller);
        await new Promise((resolve) => setTimeout(resolve, 500));
        await relay.off();
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await relay.on();
        const back = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        stop = true;
        await Promise.all(callers);
        expect(outcomes.filter((o) => o.outcome === 'NO_PRIMARY').length).toBeGreaterThan(0);
        // Back: from a second on (the finder's last answer is trusted that long), only answers.
        const after = outcomes.filter((o) => o.at > back + 1_000);
        const failed = after.filter((o) => o.outcome !== 'ok').map((o) => o.outcome);
        expect(failed).toEqual([]);
        expect(after.length).toBeGreaterThan(100);
      } finally {
        stop = true;
        await relay.off();
        await sql.end({ timeout: 1 }).catch(() => {});
      }
    }, 30_000);

    it('migrates through the same URL (the command lines and the service start there)', async () => {
      const hosts = `127.0.0.1:${pair.replicaPort},127.0.0.1:${port(pair.primaryUrl)}`;
      await expect(migrate(`postgres://postgres@${hosts}/alk`)).resolves.toBeUndefined();
    });

    it('answers "no primary", a 503 and not an unknown outcome, when every server is down or a standby', async () => {
      const sql = connect(`postgres://postgres@127.0.0.1:${down},127.0.0.1:${pair.replicaPort}/alk`, 1);
      try {
        const error = await sql`SELECT 1`.catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NoPrimary);
        expect(isUnavailable(error)).toBe(true);
        expect(isOutcomeUnknown(error)).toBe(false);
      } finally {
        await sql.end({ timeout: 5 });
      }
    });

    it('a write a standby refuses (25006) is a 503 whose debit never ran', async () => {
      const sql = connect(pair.replicaUrl, 1);
      try {
        const error = await sql`CREATE TABLE t (x int)`.catch((e: unknown) => e);
        expect((error as { code?: string }).code).toBe('25006');
        expect(isUnavailable(error)).toBe(true);
        expect(isOutcomeUnknown(error)).toBe(false);
      } finally {
        await sql.end({ timeout: 5 });
      }
    });

    it('/readyz answers 503 from a standby, 200 from the primary; /metrics names the primary (R20.7)', async () => {
      const standby = connect(pair.replicaUrl, 2);
      const hosts = `127.0.0.1:${down},127.0.0.1:${pair.replicaPort},127.0.0.1:${port(pair.primaryUrl)}`;
      const primary = connect(`postgres://postgres@${hosts}/alk`, 2);
      const watch = new PrimaryWatch(connect(`postgres://postgres@${hosts}/alk`, 1));
      const lost = new PrimaryWatch(connect(`postgres://postgres@127.0.0.1:${pair.replicaPort}/alk`, 1));
      try {
        expect((await testApp({ sql: standby }).request('/readyz')).status).toBe(503);
        expect((await testApp({ sql: primary }).request('/readyz')).status).toBe(200);
        await watch.check();
        await lost.check();
        const metrics = new Metrics(undefined, undefined, watch);
        const text = await metrics.render();
        expect(sample(text, `alk_db_primary{server="127.0.0.1:${port(pair.primaryUrl)}"}`)).toBe(1);
        expect(sample(text, 'alk_db_primary_up')).toBe(1);
        expect(sample(text, 'alk_db_failovers_total')).toBe(0);
        const none = await new Metrics(undefined, undefined, lost).render();
        expect(sample(none, 'alk_db_primary_up')).toBe(0);
        expect(none).not.toMatch(/^alk_db_primary\{/m);
      } finally {
        await Promise.all([standby.end({ timeout: 5 }), primary.end({ timeout: 5 }), watch.stop(), lost.stop()]);
      }
    });
  });
});
