import { createApiKey } from '../../src/data/accounts.ts';
import type { TestApi } from './api.ts';

/** What a watch's answers carry (the contract's Watch). */
export interface WatchBody {
  id: string;
  kind: 'domain' | 'advertiser';
  target: string;
  sandbox: boolean;
  created_at: string;
}

/** `POST /api/v1/watches` with a JSON body (given as text when it is a string). */
export function createWatch(
  api: TestApi,
  key: string,
  body: unknown,
  headers: Record<string, string> = { 'Content-Type': 'application/json' },
) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return api.request('/api/v1/watches', { key, method: 'POST', headers, body: text });
}

/** A test key of the account (its watches are sandbox watches). */
export async function testKeyOf(api: TestApi, accountId: number): Promise<string> {
  return (await createApiKey(api.db.sql, accountId, { test: true })).key;
}
