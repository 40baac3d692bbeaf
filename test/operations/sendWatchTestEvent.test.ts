// @module-tag runtime
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setAlertWebhook } from '../../src/data/alerts.ts';
import { logMailer } from '../../src/mail/mailer.ts';
import { createTestApi, type TestApi } from '../support/api.ts';
import { validateWebhookPayload } from '../support/contract.ts';
import { type HttpsReceiver, startHttpsReceiver } from '../support/https-receiver.ts';
import { createWatch, testKeyOf, type WatchBody } from '../support/watches.ts';

describe('POST /api/v1/watches/{id}/test (sendWatchTestEvent)', () => {
  let api: TestApi;
  let receiver: HttpsReceiver;
  beforeAll(async () => {
    receiver = await startHttpsReceiver();
    api = await createTestApi({
      web: {
        publicUrl: () => new URL('http://127.0.0.1'),
        secureCookies: false,
        log: () => {},
        mailer: logMailer(() => {}),
        webhooks: { ca: receiver.ca, allowPrivateAddresses: true },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
    await receiver?.close();
  });

  const watchOf = async (key: string, target = 'acme-outdoor.com') =>
    (await createWatch(api, key, { kind: 'domain', target })).body as WatchBody;

  it("200: a signed sample watch.news, marked test, reaches the account's webhook; free", async () => {
    const { key, accountId } = await api.newKey(100);
    await setAlertWebhook(api.db.sql, accountId, receiver.url, 'whsec_api_test');
    const watch = await watchOf(key);
    const before = receiver.received.length;
    const response = await api.request(`/api/v1/watches/${watch.id}/test`, { key, method: 'POST' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ delivered: true, status: 200, failure: null });
    expect(response.headers.get('x-credits-charged')).toBe('0');
    expect(await api.balanceOf(accountId)).toBe(100);
    const [post] = receiver.received.slice(before);
    const body = validateWebhookPayload('watchNews', post.body);
    expect(body).toMatchObject({
      id: (response.body as { event_id: string }).event_id,
      test: true,
      credits_charged: 0,
    });
    expect(body).toMatchObject({ watch: { id: watch.id } });
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]+)$/.exec(String(post.headers['alk-signature'])) ?? [];
    expect(createHmac('sha256', 'whsec_api_test').update(`${t}.${post.body}`).digest('hex')).toBe(v1);

    receiver.answers.push(503);
    const failed = await api.request(`/api/v1/watches/${watch.id}/test`, { key, method: 'POST' });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ delivered: false, status: 503, failure: 'the endpoint answered 503' });
  });

  it('409 no_webhook without a webhook; 409 test_event_limit_reached past the hourly limit', async () => {
    const { key, accountId } = await api.newKey();
    const watch = await watchOf(key);
    const none = await api.request(`/api/v1/watches/${watch.id}/test`, { key, method: 'POST' });
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ error: 'no_webhook' });
    await setAlertWebhook(api.db.sql, accountId, receiver.url, 'whsec_api_test');
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++)
      statuses.push((await api.request(`/api/v1/watches/${watch.id}/test`, { key, method: 'POST' })).status);
    expect(statuses).toEqual(Array(10).fill(200));
    const limited = await api.request(`/api/v1/watches/${watch.id}/test`, { key, method: 'POST' });
    expect(limited.status).toBe(409);
    expect(limited.body).toMatchObject({ error: 'test_event_limit_reached' });
  });

  it("404 for another account's watch, the other dataset's or a deleted one; 400 for a bad id", async () => {
    const { key, accountId } = await api.newKey();
    const other = await api.newKey();
    const testKey = await testKeyOf(api, accountId);
    const watch = await watchOf(key);
    for (const caller of [other.key, testKey]) {
      const response = await api.request(`/api/v1/watches/${watch.id}/test`, { key: caller, method: 'POST' });
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ error: 'watch_not_found' });
    }
    await api.request(`/api/v1/watches/${watch.id}`, { key, method: 'DELETE' });
    expect((await api.request(`/api/v1/watches/${watch.id}/test`, { key, method: 'POST' })).status).toBe(404);
    const bad = await api.request('/api/v1/watches/not-a-uuid/test', { key, method: 'POST' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid_watch_id' });
  });
});
