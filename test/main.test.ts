import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/config.ts';
import { validateResponse } from './support/contract.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';

interface Started {
  output: string;
  url: string;
  stop(): Promise<number | null>;
}

/** Runs `src/main.ts` as `npm start` does (after its install step) and waits until it listens. */
function startService(env: Record<string, string | undefined>): Promise<Started> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: projectRoot,
      env: { ...process.env, PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match && output.includes('\n', output.indexOf(match[0])) && /(already exists|Try every endpoint:(\n.*curl.*){6})/.test(output)) {
        clearTimeout(timer);
        resolve({
          output,
          url: match[1],
          stop: () => new Promise((done) => { child.once('exit', (code) => done(code)); child.kill('SIGTERM'); }),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`service exited with ${code}:\n${output}`)); });
  });
}

async function get(url: string, key: string) {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  return validateResponse('GET', url, response);
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

describe('first run (npm start)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-main-'));
  fs.chmodSync(dataDir, 0o755);
  let db: TestDatabase | undefined;
  afterAll(async () => {
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('on the embedded database: loads demo data, prints a working key once with curl lines; a second start keeps data and key', async () => {
    const env = { DATABASE_URL: undefined, EMBEDDED_PG_DIR: path.join(dataDir, 'pg'), EMBEDDED_PG_PORT: String(await freePort()) };
    const first = await startService(env);
    const key = /Demo API key[^:]*: (alk_\S+)/.exec(first.output)?.[1];
    expect(key).toBeDefined();
    expect(first.output.match(/curl -s -H "Authorization: Bearer alk_/g)).toHaveLength(6);
    const account = await get(`${first.url}/api/v1/account`, key!);
    expect(account.body).toEqual({ key_prefix: key!.slice(0, 12), balance: 200 });
    const summary = await get(`${first.url}/api/v1/advertiser?name=Globex%20Retail`, key!);
    expect(summary.status).toBe(200);
    expect(await first.stop()).toBe(0);

    const second = await startService(env);
    expect(second.output).not.toMatch(/alk_/);
    expect(second.output).toContain('already exists');
    const again = await get(`${second.url}/api/v1/advertiser?name=Globex%20Retail`, key!);
    expect(again.text.replace(/"credits_remaining":\d+/, '')).toBe(summary.text.replace(/"credits_remaining":\d+/, ''));
    expect(again.body.credits_remaining).toBe(194);
    expect(await second.stop()).toBe(0);
  }, 120_000);

  it('with DATABASE_URL: uses that server and starts no embedded one', async () => {
    db = await createTestDatabase();
    const unused = path.join(dataDir, 'never-created');
    const started = await startService({ DATABASE_URL: db.url, EMBEDDED_PG_DIR: unused });
    expect(started.output).not.toContain('embedded PostgreSQL');
    expect(fs.existsSync(unused)).toBe(false);
    const [{ count }] = await db.sql`SELECT count(*)::int AS count FROM observations`;
    expect(count).toBeGreaterThan(10_000);
    expect(await started.stop()).toBe(0);
  }, 120_000);
});
