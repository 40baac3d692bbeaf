/*
 * Reading an account's ledger, for the account page (its table and CSV), getAccountLedger and
 * admin alike: one row type, LedgerRow, whatever the reader prints. The SQL is data/ledger.ts;
 * the rows are written by the debit, the refunds, the grants and the purchases.
 */
import { resolveRef } from '../contract/document.ts';
import type { Sql } from '../data/client.ts';
import { type LedgerRow, ledgerPage } from '../data/ledger.ts';

export { type LedgerFilter, type LedgerRow, ledgerPage } from '../data/ledger.ts';

/** The ledger's kinds, in the contract's order (LedgerEntry.kind). */
export const LEDGER_KINDS: readonly LedgerRow['kind'][] = resolveRef({
  $ref: '#/components/schemas/LedgerEntry/properties/kind',
}).enum;

/** The account's newest `limit` ledger rows, newest first. */
export async function recentLedger(sql: Sql, accountId: number, limit = 100): Promise<LedgerRow[]> {
  return (await ledgerPage(sql, accountId, { limit })).rows;
}
