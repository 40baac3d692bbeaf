// @module-tag runtime
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Sql } from '../../src/data/client.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

/**
 * A query the database never answers (here: a proxy that stops passing the client's bytes on, as
 * when postgres.js strands a query on a terminated connection) fails after the statement timeout
 * and a margin, with an outcome-unknown code, instead of holding its caller for ever.
 */
describe('a query that is never answered', () => {
  let db: TestDatabase;
  let proxy: net.Server;
  let frozen = false;
  let sql: Sql;

  beforeAll(async () => {
    db = await createTestDatabase();
    const target = new URL(db.url);
    proxy = net.createServer((client) => {
      const server = net.connect(Number(target.port), target.hostname);
      client.on('data', (chunk) => {
        if (!frozen) server.write(chunk);
      });
      server.on('data', (chunk) => client.write(chunk));
      const close = () => {
        client.destroy();
        server.destroy();
      };
      client.on('error', close).on('close', close);
      server.on('error', close).on('close', close);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const url = new URL(db.url);
    url.host = `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
    sql = connect(url.toString(), 1, { statementTimeoutMs: 300, fetchArrayTypes: false });
  });
  afterAll(async () => {
    await sql?.end({ timeout: 0 });
    proxy?.close();
    await db?.drop();
  });

  it('fails with ETIMEDOUT after the statement timeout and the margin', async () => {
    expect(await sql`SELECT 1 AS one`).toEqual([{ one: 1 }]);
    frozen = true;
    const started = performance.now();
    await expect(sql`SELECT 2 AS two`).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(2_000);
    expect(waited).toBeLessThan(5_000);
  });
});
