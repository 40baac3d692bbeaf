import type { Sql } from './db/client.ts';
import { createAccount, createApiKey } from './db/accounts.ts';
import { DEMO } from './synthetic/generator.ts';

/** The account `npm start` creates on the first run; found again by this address afterwards. */
export const DEMO_ACCOUNT_EMAIL = 'demo@example.com';

/**
 * Creates the demo account and its first key (with the 200-credit grant) on the first run only.
 * Returns the plaintext key, which is never available again, or null when the account exists.
 */
export async function ensureDemoAccount(sql: Sql): Promise<string | null> {
  const [existing] = await sql`SELECT id FROM accounts WHERE email = ${DEMO_ACCOUNT_EMAIL}`;
  if (existing) return null;
  const account = await createAccount(sql, { email: DEMO_ACCOUNT_EMAIL });
  const { key } = await createApiKey(sql, account.id);
  return key;
}

/** Ready-to-paste calls of every endpoint on the demo data; together they cost 90 of the 200 credits. */
export function demoCurlLines(baseUrl: string, key: string): string[] {
  const call = (path: string, query: Record<string, string> = {}) => {
    const search = new URLSearchParams(query).toString().replace(/\+/g, '%20');
    return `curl -s -H "Authorization: Bearer ${key}" "${baseUrl}${path}${search ? `?${search}` : ''}"`;
  };
  return [
    call('/api/v1/account'),
    call('/api/v1/advertiser', { name: DEMO.sharedName }),
    call('/api/v1/domain', { domain: `https://www.${DEMO.brandDomain}/` }),
    call('/api/v1/advertiser/history', { name: DEMO.brandName }),
    call('/api/v1/advertiser/domains', { name: DEMO.intermediaryName }),
    call('/api/v1/brandbid', { domain: DEMO.brandDomain }),
  ];
}
