/*
 * An account's API keys and their rules, for the account page, the admin command line and the
 * account operations alike; the SQL is in data/api-keys.ts (and data/accounts.ts for a new key,
 * whose first grant is written with it).
 */
import { hashApiKey, isWellFormedApiKey } from '../contract/api-key.ts';
import { contractOperations } from '../contract/operations.ts';
import { type ApiKey, keysWith } from '../data/api-keys.ts';
import type { Sql } from '../data/client.ts';

export { type CreatedApiKey, createApiKey } from '../data/accounts.ts';
export { type ApiKey, keyOf, keysOf, revokeApiKey, revokeKeyOf, setDailyCap } from '../data/api-keys.ts';

/** The longest name a holder may give a key (characters, not UTF-16 units). */
export const MAX_KEY_NAME_LENGTH = 100;

/** What is wrong with a key's name (already trimmed), or null: a key needs a name of its own. */
export function keyNameProblem(name: string): string | null {
  if (name.length === 0) return 'Give the key a name.';
  if ([...name].length > MAX_KEY_NAME_LENGTH) return `Use at most ${MAX_KEY_NAME_LENGTH} characters.`;
  return null;
}

/** The largest daily cap the account page takes: far above any day's spend, and exact in a JavaScript number. */
export const MAX_DAILY_CAP = 1_000_000_000_000;

/** The cheapest billed call, from the contract: a cap with less room than this stops every call. */
const CHEAPEST_CALL = Math.min(...contractOperations.filter((op) => op.creditCost > 0).map((op) => op.creditCost));

/** A capped key that no billed call can pass today (docs/product-rules.md R12.54). */
export function capReached(key: ApiKey): boolean {
  return key.dailyCap !== null && key.dailyCap - key.spentToday < CHEAPEST_CALL;
}

/** How a key is named to its holder: the name they gave it, else its display prefix. */
export function keyLabel(key: ApiKey): string {
  return key.name ?? key.displayPrefix;
}

export function keyState(key: ApiKey): 'active' | 'revoked' {
  return key.revokedAt === null ? 'active' : 'revoked';
}

/**
 * The keys, of any account, an operator names by their id, or by a text: a key's full plaintext
 * (found by its hash, never stored) or its display prefix, which several keys may share.
 */
export async function keysNamedBy(sql: Sql, reference: { id: number } | { text: string }): Promise<ApiKey[]> {
  if ('id' in reference) return keysWith(sql, { id: reference.id });
  return isWellFormedApiKey(reference.text)
    ? keysWith(sql, { hash: hashApiKey(reference.text) })
    : keysWith(sql, { displayPrefix: reference.text });
}
