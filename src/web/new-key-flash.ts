import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * A new key's plaintext sealed for the one page view that shows it (docs/product-rules.md R12.30):
 * AES-256-GCM under a key derived from the session cookie's value, which only the browser and the
 * request hold (the database keeps its SHA-256 only), so the stored flash reveals nothing.
 */
export const NEW_KEY_FLASH_SECONDS = 5 * 60;

/** The sealing key of a session: HKDF-SHA256 of its cookie's value. */
export function flashKeyOf(sessionId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionId, '', 'advertiser-lookup-api new key flash', 32));
}

export function sealNewKey(flashKey: Buffer, plaintext: string): Buffer {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', flashKey, nonce);
  const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), sealed]);
}

/** The plaintext, or null when the flash was not sealed for this session. */
export function openNewKey(flashKey: Buffer, sealed: Buffer): string | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', flashKey, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
