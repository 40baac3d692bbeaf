import { randomBytes } from 'node:crypto';
import { normalizeEmail } from './accounts/email.ts';
import { hashPassword } from './accounts/passwords.ts';
import { createAccount, createApiKey } from './data/accounts.ts';
import type { Sql } from './data/client.ts';
import { addLogin } from './data/logins.ts';
import { DEMO } from './synthetic/generator.ts';

/** The account `npm start` creates on the first run; found again by this address afterwards. */
export const DEMO_ACCOUNT_EMAIL = 'demo@example.com';

/**
 * Creates the demo account on the first run only: its first key (with the 200-credit grant) and a
 * confirmed sign-in to the account page with a random password. Returns both in plaintext, never
 * available again, or null when the account exists.
 */
export async function ensureDemoAccount(sql: Sql): Promise<{ key: string; password: string } | null> {
  const [existing] = await sql`SELECT id FROM accounts WHERE email = ${DEMO_ACCOUNT_EMAIL}`;
  if (existing) return null;
  const account = await createAccount(sql, { email: DEMO_ACCOUNT_EMAIL });
  const { key } = await createApiKey(sql, account.id, { name: 'demo' });
  const password = randomBytes(12).toString('base64url');
  await addLogin(sql, {
    accountId: account.id,
    email: DEMO_ACCOUNT_EMAIL,
    emailNormalized: normalizeEmail(DEMO_ACCOUNT_EMAIL),
    passwordHash: await hashPassword(password),
    verified: true,
  });
  return { key, password };
}

/**
 * Ready-to-paste calls of every endpoint on the demo data, a search and a CSV export among them;
 * together they cost 100 of the 200 credits.
 */
export function demoCurlLines(baseUrl: string, key: string): string[] {
  const call = (path: string, query: Record<string, string> = {}, accept?: string) => {
    const search = new URLSearchParams(query).toString().replace(/\+/g, '%20');
    const headers = accept === undefined ? '' : ` -H "Accept: ${accept}"`;
    return `curl -s -H "Authorization: Bearer ${key}"${headers} "${baseUrl}${path}${search ? `?${search}` : ''}"`;
  };
  return [
    call('/api/v1/account'),
    call('/api/v1/advertisers/search', { q: DEMO.brandName.toLowerCase() }),
    call('/api/v1/advertiser', { name: DEMO.sharedName }),
    call('/api/v1/domain', { domain: `https://www.${DEMO.brandDomain}/` }),
    call('/api/v1/advertiser/history', { name: DEMO.brandName }),
    call('/api/v1/advertiser/history', { name: DEMO.brandName }, 'text/csv'),
    call('/api/v1/advertiser/domains', { name: DEMO.intermediaryName }),
    call('/api/v1/brandbid', { domain: DEMO.brandDomain }),
  ];
}
