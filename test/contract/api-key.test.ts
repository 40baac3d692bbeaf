// @module-tag database-free
// @module-tag runtime
import { describe, expect, it } from 'vitest';
import {
  displayPrefix,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  looksLikeApiKey,
} from '../../src/contract/api-key.ts';

describe('API keys (docs/product-rules.md R4.2, R4.3, R4.10)', () => {
  it('have a fixed recognizable prefix, at least 128 bits of randomness and a checksum', () => {
    const { key } = generateApiKey();
    expect(key).toMatch(/^alk_[0-9A-Za-z]{38}$/);
    // 32 base62 characters carry log2(62) * 32 ≈ 190 bits.
    expect(32 * Math.log2(62)).toBeGreaterThan(128);
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('are different every time', () => {
    const keys = new Set(Array.from({ length: 1000 }, () => generateApiKey().key));
    expect(keys.size).toBe(1000);
  });

  it('reject a mistyped character through the checksum, without a database', () => {
    const { key } = generateApiKey();
    const position = 10;
    const replacement = key[position] === 'a' ? 'b' : 'a';
    const typo = key.slice(0, position) + replacement + key.slice(position + 1);
    expect(isWellFormedApiKey(typo)).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`${key}x`)).toBe(false);
    expect(isWellFormedApiKey(key.replace('alk_', 'xyz_'))).toBe(false);
  });

  it('keys issued before keep their checksum and hash: the check and the hash never change', () => {
    // Issued by the admin command line on 2026-11-25, before the checksum and hash were rewritten
    // for speed; every key already handed to a customer must still be accepted as is.
    const issued = 'alk_dyIH16bfCqNcFjkgDVbFUIeJIES6D1q94VCMjf';
    expect(isWellFormedApiKey(issued)).toBe(true);
    expect(isWellFormedApiKey(`${issued.slice(0, -1)}g`)).toBe(false);
    expect(hashApiKey(issued).toString('hex')).toBe('a283988615b2f8f05125d534289458f061620d8e86694ccaf05f3d64c8221788');
  });

  it('are stored only as a SHA-256 hash and a short display prefix', () => {
    const created = generateApiKey();
    expect(created.hash).toEqual(hashApiKey(created.key));
    expect(created.hash).toHaveLength(32);
    expect(created.displayPrefix).toBe(displayPrefix(created.key));
    expect(created.displayPrefix).toHaveLength(12);
    expect(created.key.startsWith(created.displayPrefix)).toBe(true);
  });

  it('are spotted in any text by their shape, checksum right or wrong, but not inside a longer token', () => {
    const { key } = generateApiKey();
    const typo = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
    for (const text of [key, typo, `Bearer ${key}`, `my key is ${key}.`])
      expect(looksLikeApiKey(text), text).toBe(true);
    for (const text of [
      'alk_',
      `alk_${'a'.repeat(37)}`,
      `${key}x`,
      `x${key}`,
      key.replace('alk_', 'xyz_'),
      'Acme alk_ GmbH',
    ]) {
      expect(looksLikeApiKey(text), text).toBe(false);
    }
  });
});
