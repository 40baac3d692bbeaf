// @module-tag runtime
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/data/client.ts';
import { migrationNumber, shippedMigrations } from '../../src/data/migrate.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { testApp } from '../support/app.ts';
import { validateResponse } from '../support/contract.ts';

/**
 * GET /readyz: ready when the database answers within the deadline and holds every migration in
 * migrations/; otherwise the documented 503 `unavailable` with Retry-After, quickly.
 */
describe('/readyz', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  const expectUnavailable = (response: { status: number; body: unknown; headers: Headers }) => {
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: 'unavailable', message: expect.any(String), credits_refunded: 0 });
    expect(response.headers.get('retry-after')).toBe('5');
    expect(response.headers.get('x-credits-charged')).toBeNull();
  };

  it('a migrated database: 200 {"status":"ready"}, without a key, free, with no credit headers', async () => {
    const response = await api.request('/readyz');
    expect(response.status).toBe(200);
    expect(response.text).toBe('{"status":"ready"}');
    expect(response.headers.get('x-credits-charged')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('a shipped migration missing from the database: 503 unavailable; ready again once it is there', async () => {
    const shipped = shippedMigrations();
    expect(shipped.length).toBeGreaterThanOrEqual(2);
    const last = shipped.at(-1)!;
    const [removed] = await api.db.sql`
      DELETE FROM migrations WHERE migration_id = ${migrationNumber(last)} RETURNING migration_id, name, created_at`;
    expect(removed).toBeDefined();
    try {
      expectUnavailable(await api.request('/readyz'));
    } finally {
      await api.db.sql`INSERT INTO migrations ${api.db.sql(removed, 'migration_id', 'name', 'created_at')}`;
    }
    expect((await api.request('/readyz')).status).toBe(200);
  });

  it('a database no migration ever ran on (no migrations table): 503 unavailable', async () => {
    await api.db.sql`ALTER TABLE migrations RENAME TO migrations_gone`;
    try {
      expectUnavailable(await api.request('/readyz'));
    } finally {
      await api.db.sql`ALTER TABLE migrations_gone RENAME TO migrations`;
    }
  });

  it('a database that refuses connections: 503 unavailable, at once', async () => {
    const sql = connect('postgres://postgres@127.0.0.1:1/nowhere', 1);
    try {
      const app = testApp({ sql, readinessTimeoutMs: 2_000 });
      const started = performance.now();
      expectUnavailable(await validateResponse('GET', '/readyz', await app.request('/readyz')));
      expect(performance.now() - started).toBeLessThan(1_000);
    } finally {
      await sql.end({ timeout: 1 });
    }
  });

  it(
    'a database that accepts connections but never answers: ' + '503 unavailable when the deadline passes, not later',
    async () => {
      // A TCP peer that swallows everything: the connection opens, the startup message goes unanswered.
      const sockets = new Set<net.Socket>();
      const blackHole = net.createServer((socket) => {
        sockets.add(socket);
        socket.on('error', () => {});
      });
      await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
      const { port } = blackHole.address() as net.AddressInfo;
      const sql = connect(`postgres://postgres@127.0.0.1:${port}/nowhere`, 1);
      try {
        const app = testApp({ sql, readinessTimeoutMs: 300 });
        for (let probe = 0; probe < 2; probe++) {
          const started = performance.now();
          expectUnavailable(await validateResponse('GET', '/readyz', await app.request('/readyz')));
          const elapsed = performance.now() - started;
          expect(elapsed).toBeGreaterThanOrEqual(290);
          expect(elapsed).toBeLessThan(1_500);
        }
        expect(sockets.size).toBeGreaterThan(0);
      } finally {
        for (const socket of sockets) socket.destroy();
        await sql.end({ timeout: 0 });
        await new Promise((resolve) => blackHole.close(resolve));
      }
    },
  );
});
