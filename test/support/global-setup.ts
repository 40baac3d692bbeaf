import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { type EmbeddedServer, startEmbeddedPostgres } from '../../src/data/embedded.ts';
import { migrate } from '../../src/data/migrate.ts';
import { loadSandboxDataset } from '../../src/synthetic/load.ts';
import { freePort } from './ports.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templateDatabase: string;
  }
}

/**
 * Tests run on real PostgreSQL: the server at DATABASE_URL when set, otherwise an embedded one in
 * a temporary folder. One migrated template database is built here; every test file clones it.
 */
export default async function setup(project: TestProject) {
  let embedded: EmbeddedServer | undefined;
  let tempDir: string | undefined;
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-test-pg-'));
    // initdb runs as the unprivileged postgres user and must be able to enter the folder.
    fs.chmodSync(tempDir, 0o755);
    embedded = await startEmbeddedPostgres(path.join(tempDir, 'data'), await freePort());
    adminUrl = embedded.url;
  }
  const template = `alk_test_template_${process.pid}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  if (embedded) {
    // This throw-away cluster lives as long as the run and is never killed (the tests that kill a
    // PostgreSQL start their own), so waiting for the disk at each commit only costs time.
    await admin.unsafe('ALTER SYSTEM SET fsync = off');
    await admin.unsafe('SELECT pg_reload_conf()');
  }
  await admin.unsafe(`DROP DATABASE IF EXISTS ${template}`);
  await admin.unsafe(`CREATE DATABASE ${template} TEMPLATE template0 ENCODING 'UTF8'`);
  await migrate(withDatabase(adminUrl, template));
  await loadSandboxDataset(withDatabase(adminUrl, template));
  project.provide('adminUrl', adminUrl);
  project.provide('templateDatabase', template);

  return async () => {
    const leftovers = await admin<{ datname: string }[]>`
      SELECT datname FROM pg_database WHERE datname LIKE ${`alk_test_%_${process.pid}%`}`;
    for (const { datname } of leftovers) await admin.unsafe(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    await admin.end();
    await embedded?.stop();
    if (tempDir) fs.rmSync(tempDir, { recursive: true, force: true });
  };
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
