// @module-tag runtime
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateResponse } from './support/contract.ts';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { DEMO_CURL_LINES, freePort, startService } from './support/service.ts';

async function get(url: string, key: string) {
  const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
  return validateResponse('GET', url, response);
}

describe('first run (npm start)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'alk-main-'));
  fs.chmodSync(dataDir, 0o755);
  let db: TestDatabase | undefined;
  afterAll(async () => {
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('on the embedded database: loads demo data, prints a working ' +
    'key once with curl lines; a second start keeps data and key', async () => {
    const env = {
      DATABASE_URL: undefined,
      EMBEDDED_PG_DIR: path.join(dataDir, 'pg'),
      EMBEDDED_PG_PORT: String(await freePort()),
    };
    const first = await startService(env);
    const key = /Demo API key[^:]*: (alk_\S+)/.exec(first.output)?.[1];
    expect(key).toBeDefined();
    expect(first.output.match(/curl -s -H "Authorization: Bearer alk_/g)).toHaveLength(DEMO_CURL_LINES);
    // The demo account signs in to the account page with the password printed once.
    const password = /sign-in \(shown once, never again\): demo@example\.com with the password (\S+)/.exec(
      first.output,
    )?.[1];
    expect(password).toBeDefined();
    expect(first.output).toContain(`${first.url}/account`);
    const account = await get(`${first.url}/api/v1/account`, key!);
    expect(account.body).toEqual({ key_prefix: key!.slice(0, 12), balance: 200 });
    const summary = await get(`${first.url}/api/v1/advertiser?name=Globex%20Retail`, key!);
    expect(summary.status).toBe(200);
    expect(await first.stop()).toBe(0);
    // The structured log: JSON lines for start, each request and stop; the key only in the lines for people.
    const json = first
      .outputNow()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(json.map((line) => line.msg)).toEqual([
      'service started',
      'request',
      'request',
      'service stopping',
      'service stopped',
    ]);
    expect(json[0]).toMatchObject({ level: 'info', url: first.url });
    expect(json[1]).toMatchObject({ operation: 'getAccount', status: 200, credits_charged: 0 });
    expect(json[2]).toMatchObject({ operation: 'getAdvertiserSummary', status: 200, credits_charged: 3 });
    expect(json[3]).toMatchObject({ signal: 'SIGTERM' });
    expect(JSON.stringify(json)).not.toContain(key!.slice(0, 12));

    const second = await startService(env);
    expect(second.output).not.toMatch(/alk_/);
    expect(second.output).not.toContain(password!);
    expect(second.output).toContain('already exists');
    const signInPage = await fetch(`${second.url}/account/sign-in`);
    const formCookie = signInPage.headers.getSetCookie()[0].split(';')[0];
    const formToken = /name="csrf_token" value="([^"]+)"/.exec(await signInPage.text())![1];
    const signedIn = await fetch(`${second.url}/account/sign-in`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: second.url, Cookie: formCookie },
      body: new URLSearchParams({ csrf_token: formToken, email: 'demo@example.com', password: password! }),
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/account');
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
