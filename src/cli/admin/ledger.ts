import type { Command } from 'commander';
import { type LedgerRow, recentLedger } from '../../accounts/ledger.ts';
import { type AdminContext, jsonOption, ledgerLimit, positiveId } from './command-line.ts';

/** One ledger row as a line for people (`ledger`, `account show`). */
export function describeEntry(entry: LedgerRow): string {
  const amount = entry.amount > 0 ? `+${entry.amount}` : String(entry.amount);
  // A reversal names the payment it takes back and what the balance could not cover (owed).
  const reversed = entry.reversedPayment && `reverses ${entry.reversedPayment}  owed ${entry.owed ?? 0}`;
  const what = entry.paymentReference ? `reference ${entry.paymentReference}` : (reversed ?? entry.operation ?? '');
  // A reversal's request id is the Stripe event that made it.
  const source = entry.kind === 'reversal' ? 'event' : 'request';
  return (
    `${entry.createdAt.toISOString()}  #${entry.id}  ${entry.kind.padEnd(8)} ` +
    `${amount.padStart(7)}  balance ${String(entry.balanceAfter).padStart(7)} ` +
    ` ${what}${entry.requestId ? `  ${source} ${entry.requestId}` : ''}`
  );
}

/** A ledger row as `--json` prints it: the ledger's own column names (`endpoint` is the operationId). */
export const entryJson = (entry: LedgerRow) => ({
  id: entry.id,
  kind: entry.kind,
  amount: entry.amount,
  balance_after: entry.balanceAfter,
  key_id: entry.keyId,
  endpoint: entry.operation,
  request_id: entry.requestId,
  payment_reference: entry.paymentReference,
  reversed_payment: entry.reversedPayment,
  owed: entry.owed,
  created_at: entry.createdAt.toISOString(),
});

/** `admin ledger ACCOUNT_ID`. */
export function ledgerCommand(program: Command, { sql, print, requireAccount }: AdminContext): void {
  program
    .command('ledger <accountId>')
    .description("an account's ledger, newest first")
    .option('--limit <n>', 'entries to show', ledgerLimit, 50)
    .addOption(jsonOption())
    .action(async (rawId: string, options: { limit: number; json?: boolean }) => {
      const accountId = positiveId('ACCOUNT_ID')(rawId);
      await requireAccount(accountId);
      const entries = await recentLedger(sql, accountId, options.limit);
      const text =
        entries.length === 0 ? `Account ${accountId} has no ledger entries.` : entries.map(describeEntry).join('\n');
      print(!!options.json, { account_id: accountId, entries: entries.map(entryJson) }, text);
    });
}
