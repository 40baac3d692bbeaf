// @module-tag runtime
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.ts';
import { generateApiKey } from '../../src/contract/api-key.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { testApp } from '../support/app.ts';
import { validateResponse } from '../support/contract.ts';

const FLOOR_MS = 200;
/**
 * The floor of the app that proves other answers do not wait: so long that an answer that waited it
 * could not pass, however loaded the machine, while one that did not passes with seconds to spare.
 */
const LONG_FLOOR_MS = 60_000;

describe('every 401 waits out the same floor (refusal-timing)', () => {
  let api: TestApi;
  let app: App;
  let longFloor: App;
  let key: string;
  beforeAll(async () => {
    api = await createTestApi();
    app = testApp({ sql: api.db.sql, unauthorizedFloorMs: FLOOR_MS });
    longFloor = testApp({ sql: api.db.sql, unauthorizedFloorMs: LONG_FLOOR_MS });
    ({ key } = await api.newKey(1000));
  });
  afterAll(async () => {
    await api.close();
  });

  async function timed(path: string, headers: Record<string, string> = {}, on = app) {
    const started = performance.now();
    const response = await validateResponse('GET', path, await on.request(path, { headers }));
    return { status: response.status, ms: performance.now() - started };
  }

  it('a 401 answers no sooner than the floor, whether the key was looked up or not', async () => {
    const typo = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    for (const headers of <Record<string, string>[]>[
      {},
      { 'x-api-key': typo },
      { 'x-api-key': generateApiKey().key },
    ]) {
      const { status, ms } = await timed('/api/v1/advertiser?name=Nobody', headers);
      expect(status).toBe(401);
      expect(ms).toBeGreaterThanOrEqual(FLOOR_MS - 2);
    }
    const inUrl = await timed(`/api/v1/account?api_key=${key}`, { 'x-api-key': key });
    expect(inUrl.status).toBe(401);
    expect(inUrl.ms).toBeGreaterThanOrEqual(FLOOR_MS - 2);
  });

  it('no other answer waits: 200, 400 and 404 go out at once', async () => {
    const headers = { Authorization: `Bearer ${key}` };
    for (const [path, status] of [
      ['/api/v1/account', 200],
      ['/api/v1/advertiser', 400],
      ['/api/v1/advertiser?name=Nobody', 404],
      ['/api/v1/nothing', 404],
    ] as const) {
      const answer = await timed(path, headers, longFloor);
      expect(answer.status, path).toBe(status);
      expect(answer.ms, path).toBeLessThan(LONG_FLOOR_MS / 6);
    }
  });
});
