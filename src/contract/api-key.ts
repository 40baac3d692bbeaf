import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API keys look like `alk_<32 base62 random chars><6 base62 checksum chars>`: a fixed prefix that
 * secret scanners and people recognise, about 190 bits of randomness, and a CRC-32 checksum so a
 * mistyped or truncated key is rejected without a database lookup. A test key (the sandbox,
 * docs/product-rules.md §17) is `alk_test_<the same>`: what a key reaches is written on it, so a
 * test key can never be taken for a live one, nor the other way round.
 */
const PREFIX = 'alk_';
const TEST_PREFIX = `${PREFIX}test_`;
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SHAPE = new RegExp(`^${PREFIX}(?:test_)?[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);
/** What an account holder sees of a key after creation: its prefix and 8 random characters. */
const DISPLAY_RANDOM = 8;

function base62(value: bigint, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = ALPHABET[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out;
}

function checksum(body: string): string {
  // Every API request checks one; a CRC-32 fits a double exactly, so no BigInt is needed.
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

export interface NewApiKey {
  /** The plaintext, shown once. */
  key: string;
  hash: Buffer;
  displayPrefix: string;
}

export function generateApiKey({ test = false }: { test?: boolean } = {}): NewApiKey {
  const random = base62(BigInt(`0x${randomBytes(24).toString('hex')}`), RANDOM_LENGTH);
  const body = (test ? TEST_PREFIX : PREFIX) + random;
  const key = body + checksum(body);
  return { key, hash: hashApiKey(key), displayPrefix: displayPrefix(key) };
}

/** True when the string has the shape of a key and its checksum matches. */
export function isWellFormedApiKey(candidate: string): boolean {
  if (!SHAPE.test(candidate)) return false;
  const body = candidate.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === candidate.slice(-CHECKSUM_LENGTH);
}

/** A well-formed key that reaches the sandbox. */
export function isTestApiKey(key: string): boolean {
  return key.startsWith(TEST_PREFIX);
}

/** Anything that contains our key's shape, checksum right or wrong: how a leaked key is spotted in text. */
const SHAPE_ANYWHERE = new RegExp(
  `(?<![0-9A-Za-z])${PREFIX}(?:test_)?[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}(?![0-9A-Za-z])`,
);

export function looksLikeApiKey(text: string): boolean {
  return text.includes(PREFIX) && SHAPE_ANYWHERE.test(text);
}

const SHAPES_ANYWHERE = new RegExp(SHAPE_ANYWHERE.source, 'g');

/** The text with everything `looksLikeApiKey` would spot replaced by `alk_…`: safe to echo. */
export function redactApiKeys(text: string): string {
  return text.includes(PREFIX) ? text.replace(SHAPES_ANYWHERE, `${PREFIX}…`) : text;
}

export function hashApiKey(key: string): Buffer {
  // The one-shot hash: every API request hashes its key, and a Hash object costs more than the digest.
  return hash('sha256', key, 'buffer');
}

export function displayPrefix(key: string): string {
  return key.slice(0, (isTestApiKey(key) ? TEST_PREFIX : PREFIX).length + DISPLAY_RANDOM);
}
