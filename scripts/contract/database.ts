import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { startEmbeddedPostgres } from '../../src/data/embedded.ts';

/** A database that exists for one contract run only. */
export interface FreshDatabase {
  url: string;
  /** Where it lives, for the log. */
  description: string;
  /** Drops the database (or stops the embedded server and removes its folder). */
  close(): Promise<void>;
}

/**
 * A new, empty database: on the server at DATABASE_URL when it is set, otherwise on an embedded
 * PostgreSQL in a temporary folder. The service migrates it and loads the demo data at start.
 */
export async function freshDatabase(): Promise<FreshDatabase> {
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `alk_contract_${randomBytes(6).toString('hex')}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      description: `database ${name} on ${url.host}`,
      async close() {
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-contract-pg-'));
  // initdb runs as the unprivileged postgres user and must be able to enter the folder.
  fs.chmodSync(folder, 0o755);
  const port = await freePort();
  const embedded = await startEmbeddedPostgres(path.join(folder, 'data'), port);
  return {
    url: embedded.url,
    description: `embedded PostgreSQL in ${folder} (port ${port})`,
    async close() {
      await embedded.stop();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}
