/**
 * The ledger's page cursor (getAccountLedger): opaque to clients, so its form can change, and
 * checked strictly, so a made-up one is a clear 400 rather than a page from nowhere. It is the
 * base64url of `ledger:<id>`, the id of the last entry of the previous page.
 */
const PREFIX = 'ledger:';

export function ledgerCursor(lastId: number): string {
  return Buffer.from(`${PREFIX}${lastId}`, 'utf8').toString('base64url');
}

/** The entry id the cursor continues after, or null when this service did not make it. */
export function entryAfter(cursor: string): number | null {
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^ledger:([1-9][0-9]{0,15})$/.exec(text);
  if (match === null || ledgerCursor(Number(match[1])) !== cursor) return null;
  const id = Number(match[1]);
  return Number.isSafeInteger(id) ? id : null;
}
