// @module-tag database-free
// @module-tag runtime
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/config.ts';
import { freePort, startService } from '../support/service.ts';

/**
 * The command lines use the same embedded database as the service, whether or not the service is
 * running: they attach to the server the service started, or start one and stop it again.
 */
describe('command lines on the embedded database', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-cli-embedded-'));
  fs.chmodSync(dataDir, 0o755);
  const pgDir = path.join(dataDir, 'pg');
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  const admin = (env: Record<string, string>, ...argv: string[]) => {
    const { DATABASE_URL: _ignored, ...inherited } = process.env;
    return spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...argv], {
      cwd: projectRoot,
      env: { ...inherited, ...env },
      encoding: 'utf8',
    });
  };

  it("attach to the running service's server, then start and stop their own when it is down", async () => {
    const env = { EMBEDDED_PG_DIR: pgDir, EMBEDDED_PG_PORT: String(await freePort()), DEMO_DATA: 'off' };
    const service = await startService({ ...env, DATABASE_URL: undefined });
    const created = admin(env, 'account', 'create', '--email', 'while-running@example.com', '--json');
    expect(created.status, created.stderr).toBe(0);
    const accountId = JSON.parse(created.stdout).id;
    const { key } = JSON.parse(admin(env, 'key', 'create', String(accountId), '--json').stdout);
    // The service sees at once what the command line wrote: they share one server.
    const response = await fetch(`${service.url}/api/v1/account`, { headers: { 'x-api-key': key } });
    expect(await response.json()).toEqual({ key_prefix: key.slice(0, 12), balance: 200 });
    expect(fs.existsSync(path.join(pgDir, 'postmaster.pid'))).toBe(true);
    expect(await service.stop()).toBe(0);
    expect(fs.existsSync(path.join(pgDir, 'postmaster.pid'))).toBe(false);

    const shown = admin(env, 'account', 'show', String(accountId), '--json');
    expect(shown.status, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ email: 'while-running@example.com', balance: 200 });
    // It stopped the server it started.
    expect(fs.existsSync(path.join(pgDir, 'postmaster.pid'))).toBe(false);
  }, 120_000);
});
