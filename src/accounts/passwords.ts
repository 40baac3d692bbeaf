import { type Algorithm, hash, verify } from '@node-rs/argon2';

/**
 * argon2id with OWASP's first recommended setting (19 MiB of memory, 2 passes, 1 lane): about
 * 20–40 ms per hash on this service's 2-core machines, so a sign-in stays quick and a stolen table
 * stays expensive to guess from.
 */
// Algorithm.Argon2id: a const enum, which this project's isolated modules cannot read.
const ARGON2 = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/** NIST SP 800-63B §3.1.1.2: at least 8 characters when chosen by the holder; we ask for 10. */
export const MIN_PASSWORD_LENGTH = 10;
/** Long enough for any passphrase; bounds the work of hashing what a client sends. */
export const MAX_PASSWORD_LENGTH = 256;

let common: Promise<Set<string>> | undefined;

/**
 * The most common passwords (49,233 of them), shipped with zxcvbn-ts, compared lower-case. Loaded
 * at the first password chosen: a service whose customers never sign up does not hold the
 * dictionaries in memory.
 */
function commonPasswords(): Promise<Set<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set((dictionary['passwords-common'] as string[]).map((word) => word.toLowerCase())),
  );
  return common;
}

/**
 * Why a new password is refused, or null when it is acceptable (docs/product-rules.md R12.3): NIST
 * SP 800-63B asks for a minimum length, any characters (spaces and emoji included, no composition
 * rules), and a check against passwords known to be common or compromised.
 */
export async function passwordProblem(password: string, email: string): Promise<string | null> {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH) return `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  if (length > MAX_PASSWORD_LENGTH) return `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  const lower = password.toLowerCase();
  if ((await commonPasswords()).has(lower)) return 'This password is among the most common ones; choose another.';
  const address = email.trim().toLowerCase();
  if (lower === address || lower === address.split('@')[0]) return 'Do not use your email address as the password.';
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

/**
 * A hash of a password nobody has, verified against when an address is unknown, so a sign-in
 * with an unknown address costs the same time as one with a wrong password.
 */
const NOBODY = hash('no account has this password', ARGON2);

/** Whether `password` matches `stored`; with no stored hash, it spends the same time and says no. */
export async function passwordMatches(stored: string | null, password: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH * 4) return false;
  if (stored === null) {
    await verify(await NOBODY, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
