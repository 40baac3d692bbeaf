/** An address as it is compared: trimmed and lower-case (two spellings of one mailbox are one sign-in). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * A deliberately loose check (one `@`, something before it, a dot after it, no white space, at
 * most 254 characters): the verification email is the real test of an address.
 */
export function isPlausibleEmail(email: string): boolean {
  const trimmed = email.trim();
  return trimmed.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed);
}
