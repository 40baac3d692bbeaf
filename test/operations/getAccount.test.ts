import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayPrefix } from '../../src/contract/api-key.ts';
import { createTestApi, type TestApi } from '../support/api.ts';

describe('GET /api/v1/account', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('200: the key prefix and the balance, free: nothing charged, no ledger row', async () => {
    const { key, accountId } = await api.newKey(250);
    const response = await api.request('/api/v1/account', { key });
    expect(response.status).toBe(200);
    expect(response.text).toBe(`{"key_prefix":"${displayPrefix(key)}","balance":250}`);
    expect(response.headers.get('x-credits-charged')).toBe('0');
    expect(response.headers.get('x-credits-remaining')).toBe('250');
    expect(await api.ledgerSum(accountId)).toBe(250);
    expect(await api.balanceOf(accountId)).toBe(250);
  });

  it('ignores the Idempotency-Key header, even a malformed one', async () => {
    const { key } = await api.newKey(10);
    const response = await api.request('/api/v1/account', { key, headers: { 'Idempotency-Key': ' not a key ' } });
    expect(response.status).toBe(200);
  });

  it('401 without a valid key, with no credit headers', async () => {
    const response = await api.request('/api/v1/account');
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: 'unauthorized' });
    expect(response.headers.get('x-credits-remaining')).toBeNull();
  });
});
