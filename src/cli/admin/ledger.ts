import type { Command } from 'commander';
import { type LedgerEntry, ledgerEntries } from '../../data/accounts.ts';
import { type AdminContext, jsonOption, ledgerLimit, positiveId } from './command-line.ts';

/** One ledger entry as a line for people (`ledger`, `account show`). */
export function describeEntry(entry: LedgerEntry): string {
  const amount = entry.amount > 0 ? `+${entry.amount}` : String(entry.amount);
  // A reversal names the payment it takes back and what the balance could not cover (owed).
  const reversed = entry.reversed_payment && `reverses ${entry.reversed_payment}  owed ${entry.owed ?? 0}`;
  const what = entry.payment_reference ? `reference ${entry.payment_reference}` : (reversed ?? entry.endpoint ?? '');
  // A reversal's request id is the Stripe event that made it.
  const source = entry.kind === 'reversal' ? 'event' : 'request';
  return (
    `${entry.created_at.toISOString()}  #${entry.id}  ${entry.kind.padEnd(8)} ` +
    `${amount.padStart(7)}  balance ${String(entry.balance_after).padStart(7)} ` +
    ` ${what}${entry.request_id ? `  ${source} ${entry.request_id}` : ''}`
  );
}

export const entryJson = (entry: LedgerEntry) => ({ ...entry, created_at: entry.created_at.toISOString() });

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
      const entries = await ledgerEntries(sql, accountId, options.limit);
      const text =
        entries.length === 0 ? `Account ${accountId} has no ledger entries.` : entries.map(describeEntry).join('\n');
      print(!!options.json, { account_id: accountId, entries: entries.map(entryJson) }, text);
    });
}
