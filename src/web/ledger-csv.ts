import type { LedgerRow } from '../data/ledger.ts';

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
 * A text field of RFC 4180 CSV: quoted when it holds a comma, a quote or a line break. A text that
 * a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a carriage return;
 * OWASP's "CSV injection") gets a leading apostrophe. A request id is the caller's own text.
 */
export function csvText(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One ledger row as a CSV record, with its CRLF. */
export function ledgerCsvRecord(row: LedgerRow): string {
  return `${[
    String(row.id),
    row.createdAt.toISOString(),
    row.kind,
    String(row.amount),
    String(row.balanceAfter),
    csvText(row.operation),
    csvText(row.keyPrefix),
    csvText(row.requestId),
    csvText(row.paymentReference),
    row.refundOf === null ? '' : String(row.refundOf),
  ].join(',')}\r\n`;
}
