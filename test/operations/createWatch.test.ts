import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../support/api.ts';
import { createWatch, testKeyOf, type WatchBody } from '../support/watches.ts';

const WATCH_LIMIT = 5;

describe('POST /api/v1/watches (createWatch)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi({ watchLimit: WATCH_LIMIT });
  });
  afterAll(() => api?.close());

  it('201: a domain watch on the root domain of a URL, with its Location; free, no ledger row', async () => {
    const { key, accountId } = await api.newKey(200);
    const response = await createWatch(api, key, { kind: 'domain', target: 'https://WWW.Shop.Acme-Outdoor.co.uk/x?y' });
    expect(response.status).toBe(201);
    const watch = response.body as WatchBody;
    expect(watch).toMatchObject({ kind: 'domain', target: 'acme-outdoor.co.uk', sandbox: false });
    expect(response.headers.get('location')).toBe(`/api/v1/watches/${watch.id}`);
    expect(response.headers.get('x-credits-charged')).toBe('0');
    expect(response.headers.get('x-credits-remaining')).toBe('200');
    expect(await api.balanceOf(accountId)).toBe(200);
    const [{ rows }] = await api.db.sql<{ rows: number }[]>`
      SELECT count(*)::int AS rows FROM ledger WHERE account_id = ${accountId} AND endpoint = 'createWatch'`;
    expect(rows).toBe(0);
    const [stored] = await api.db.sql`SELECT key_id, account_id FROM watches WHERE id = ${watch.id}`;
    expect(stored).toMatchObject({ account_id: accountId });
  });

  it('201: an advertiser watch keeps the name byte for byte', async () => {
    const { key } = await api.newKey();
    const response = await createWatch(api, key, { kind: 'advertiser', target: ' Acme  Outdoor ' });
    expect(response.status).toBe(201);
    expect((response.body as WatchBody).target).toBe(' Acme  Outdoor ');
  });

  it('200: the same live watch again (normalized target) is that watch; deleted, it is created anew', async () => {
    const { key } = await api.newKey();
    const first = await createWatch(api, key, { kind: 'domain', target: 'acme-outdoor.com' });
    const again = await createWatch(api, key, { kind: 'domain', target: 'http://www.ACME-outdoor.com/' });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBeNull();
    const id = (first.body as WatchBody).id;
    expect((await api.request(`/api/v1/watches/${id}`, { key, method: 'DELETE' })).status).toBe(204);
    const anew = await createWatch(api, key, { kind: 'domain', target: 'acme-outdoor.com' });
    expect(anew.status).toBe(201);
    expect((anew.body as WatchBody).id).not.toBe(id);
  });

  it('a test key makes a sandbox watch, apart from the live one of the same target', async () => {
    const { key, accountId } = await api.newKey();
    const testKey = await testKeyOf(api, accountId);
    const live = await createWatch(api, key, { kind: 'domain', target: 'acme-outdoor.com' });
    const sandbox = await createWatch(api, testKey, { kind: 'domain', target: 'acme-outdoor.com' });
    expect([live.status, sandbox.status]).toEqual([201, 201]);
    expect((sandbox.body as WatchBody).sandbox).toBe(true);
    expect(sandbox.headers.get('x-sandbox')).toBe('true');
    expect((sandbox.body as WatchBody).id).not.toBe((live.body as WatchBody).id);
  });

  it('409 watch_limit_reached at the limit, per dataset; a parallel burst never passes it', async () => {
    const { key, accountId } = await api.newKey();
    const burst = await Promise.all(
      Array.from({ length: 3 * WATCH_LIMIT }, (_, i) =>
        createWatch(api, key, { kind: 'advertiser', target: `Burst advertiser ${i}` }),
      ),
    );
    const statuses = burst.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(WATCH_LIMIT);
    expect(statuses.filter((status) => status === 409)).toHaveLength(2 * WATCH_LIMIT);
    const refused = burst.find((response) => response.status === 409)!;
    expect(refused.body).toMatchObject({ error: 'watch_limit_reached', limit: WATCH_LIMIT });
    expect(refused.headers.get('x-credits-charged')).toBe('0');
    const [{ live }] = await api.db.sql<{ live: number }[]>`
      SELECT count(*)::int AS live FROM watches WHERE account_id = ${accountId} AND deleted_at IS NULL`;
    expect(live).toBe(WATCH_LIMIT);
    // The same watch again is still found at the limit; the sandbox has its own limit.
    expect((await createWatch(api, key, { kind: 'advertiser', target: 'Burst advertiser 0' })).status).toBe(200);
    const testKey = await testKeyOf(api, accountId);
    expect((await createWatch(api, testKey, { kind: 'advertiser', target: 'Burst advertiser 0' })).status).toBe(201);
  });

  it('a parallel burst of the same watch creates it once', async () => {
    const { key, accountId } = await api.newKey();
    const burst = await Promise.all(
      Array.from({ length: 8 }, () => createWatch(api, key, { kind: 'domain', target: 'globex.com' })),
    );
    expect(burst.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(burst.map((response) => (response.body as WatchBody).id)).size).toBe(1);
    const [{ rows }] = await api.db.sql<{ rows: number }[]>`
      SELECT count(*)::int AS rows FROM watches WHERE account_id = ${accountId}`;
    expect(rows).toBe(1);
  });

  it('Idempotency-Key: a retry replays the first answer; the key with another body is 422', async () => {
    const { key } = await api.newKey();
    const headers = { 'Content-Type': 'application/json', 'Idempotency-Key': 'watch-create-1' };
    const first = await createWatch(api, key, { kind: 'domain', target: 'acme-outdoor.com' }, headers);
    const retry = await createWatch(api, key, { kind: 'domain', target: 'www.acme-outdoor.com' }, headers);
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const other = await createWatch(api, key, { kind: 'domain', target: 'globex.com' }, headers);
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ error: 'idempotency_key_reused' });
    const malformed = await createWatch(
      api,
      key,
      { kind: 'domain', target: 'globex.com' },
      { 'Content-Type': 'application/json', 'Idempotency-Key': 'has space' },
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: 'invalid_idempotency_key' });
  });

  it('400 for every body that is not a watch request, with its code; never a 500', async () => {
    const { key } = await api.newKey();
    const cases: [unknown, string][] = [
      ['{not json', 'invalid_body'],
      ['', 'invalid_body'],
      ['[1,2]', 'invalid_body'],
      ['"domain"', 'invalid_body'],
      ['null', 'invalid_body'],
      [{ kind: 'domain' }, 'invalid_body'],
      [{ kind: 'domain', target: 'a.com', extra: 1 }, 'invalid_body'],
      [{ kind: 'domain', target: 42 }, 'invalid_body'],
      [{ kind: 'brand', target: 'a.com' }, 'invalid_kind'],
      [{ kind: 7, target: 'a.com' }, 'invalid_kind'],
      [{ kind: 'domain', target: '  ' }, 'missing_domain'],
      [{ kind: 'domain', target: 'localhost' }, 'invalid_domain'],
      [{ kind: 'domain', target: 'co.uk' }, 'invalid_domain'],
      [{ kind: 'domain', target: `${'a'.repeat(3000)}.com` }, 'invalid_domain'],
      [{ kind: 'advertiser', target: '\u3000' }, 'missing_name'],
      [{ kind: 'advertiser', target: 'x'.repeat(513) }, 'invalid_name'],
      [{ kind: 'advertiser', target: 'nul\u0000name' }, 'invalid_name'],
      ['{"kind":"advertiser","target":"half \\ud800 pair"}', 'invalid_name'],
    ];
    for (const [body, code] of cases) {
      const response = await createWatch(api, key, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body, JSON.stringify(body)).toMatchObject({ error: code });
      expect(response.headers.get('x-credits-charged')).toBe('0');
    }
    expect((await createWatch(api, key, { kind: 'advertiser', target: 'x'.repeat(512) })).status).toBe(201);
  });

  it(
    'a body over 16 KiB is 400 invalid_body, read no further than the limit; ' + 'bytes not UTF-8 are invalid_body',
    async () => {
      const { key } = await api.newKey();
      /** A body of 64 MiB of white space in 64 KiB chunks, counting what the service pulls. */
      const spaces = () => {
        const pulled = { bytes: 0 };
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            pulled.bytes += 64 * 1024;
            controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
            if (pulled.bytes >= 64 * 1024 * 1024) controller.close();
          },
        });
        return { body, pulled };
      };
      for (const declared of [{}, { 'Content-Length': String(600 * 1024 * 1024) }]) {
        const { body, pulled } = spaces();
        const response = await api.app.request('/api/v1/watches', {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...declared },
          body,
          duplex: 'half',
        } as RequestInit);
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ error: 'invalid_body' });
        expect(response.headers.get('x-credits-charged')).toBe('0');
        expect(pulled.bytes).toBeLessThanOrEqual(3 * 64 * 1024);
      }
      const notUtf8 = await api.app.request('/api/v1/watches', {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: Buffer.concat([
          Buffer.from('{"kind":"advertiser","target":"'),
          Buffer.from([0xff, 0xfe]),
          Buffer.from('"}'),
        ]),
      });
      expect(notUtf8.status).toBe(400);
      expect(await notUtf8.json()).toMatchObject({ error: 'invalid_body' });
    },
  );

  it('415 unsupported_media_type for a body not sent as JSON', async () => {
    const { key } = await api.newKey();
    const body = JSON.stringify({ kind: 'domain', target: 'a.com' });
    const kinds: Record<string, string>[] = [
      {},
      { 'Content-Type': 'text/plain' },
      { 'Content-Type': 'text/csv' },
      { 'Content-Type': 'application/json; charset=latin1' },
      { 'Content-Type': 'application/json; charset=utf-16' },
    ];
    for (const headers of kinds) {
      const response = await createWatch(api, key, body, headers);
      expect(response.status).toBe(415);
      expect(response.body).toMatchObject({ error: 'unsupported_media_type' });
    }
    const charset = await createWatch(api, key, body, { 'Content-Type': 'Application/JSON; charset=utf-8' });
    expect(charset.status).toBe(201);
    const quoted = await createWatch(api, key, body, { 'Content-Type': 'application/json; charset="UTF-8"' });
    expect(quoted.status).toBe(200);
  });

  it('401 before the body is looked at; 406 for an Accept without JSON', async () => {
    const unknown = await createWatch(api, 'alk_nope', '{bad');
    expect(unknown.status).toBe(401);
    const { key } = await api.newKey();
    const response = await createWatch(
      api,
      key,
      { kind: 'domain', target: 'a.com' },
      {
        'Content-Type': 'application/json',
        Accept: 'text/csv',
      },
    );
    expect(response.status).toBe(406);
  });

  it('405 with Allow for the methods the path does not answer', async () => {
    const { key } = await api.newKey();
    const response = await api.request('/api/v1/watches', { key, method: 'PUT' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST, HEAD');
  });
});
