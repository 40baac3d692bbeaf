import type { LedgerRow } from '../accounts/ledger.ts';
import { csvField } from '../http/csv.ts';

export const LEDGER_CSV_HEADER = [
  'id',
  'created_at',
  'kind',
  'amount',
  'balance_after',
  'operation',
  'key_prefix',
  'request_id',
  'payment_reference',
  'refund_of',
] as const;

/**
 * One ledger row as a CSV record, with its CRLF, written like every CSV of the service (R12.40):
 * a request id is the caller's own text, so it may start a formula and is written as text.
 */
export function ledgerCsvRecord(row: LedgerRow): string {
  return `${[
    row.id,
    row.createdAt.toISOString(),
    row.kind,
    row.amount,
    row.balanceAfter,
    row.operation,
    row.keyPrefix,
    row.requestId,
    row.paymentReference,
    row.refundOf,
  ]
    .map(csvField)
    .join(',')}\r\n`;
}
