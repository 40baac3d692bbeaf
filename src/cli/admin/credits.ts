import type { Command } from 'commander';
import { addCredits } from '../../data/accounts.ts';
import { owedCredits } from '../../data/purchases.ts';
import { type AdminContext, jsonOption, positiveAmount, positiveId } from './command-line.ts';

/** `admin credits owed | add`. */
export function creditsCommand(program: Command, { sql, print, requireAccount }: AdminContext): void {
  const credits = program.command('credits').description('add purchased credits; list what refunded payments owe');
  credits
    .command('owed')
    .description('accounts whose refunded or disputed payments took back more credits than the balance had')
    .addOption(jsonOption())
    .action(async (options: { json?: boolean }) => {
      const owed = await owedCredits(sql);
      const text =
        owed.length === 0
          ? 'No account owes credits.'
          : owed.map((row) => `account ${row.accountId}  owes ${row.owed} credits`).join('\n');
      print(!!options.json, { owed: owed.map((row) => ({ account_id: row.accountId, owed: row.owed })) }, text);
    });
  credits
    .command('add <accountId> <amount>')
    .description('add credits under a payment reference; the same reference again adds nothing')
    .requiredOption('--reference <ref>', 'payment reference (unique across all accounts)')
    .addOption(jsonOption())
    .action(async (rawId: string, rawAmount: string, options: { reference: string; json?: boolean }) => {
      const accountId = positiveId('ACCOUNT_ID')(rawId);
      const amount = positiveAmount(rawAmount);
      await requireAccount(accountId);
      const result = await addCredits(sql, accountId, amount, options.reference);
      const text = result.added
        ? `Added ${amount} credits to account ${accountId} (reference ` +
          `${options.reference}). Balance: ${result.balance}.`
        : `Reference ${options.reference} was already credited to account ` +
          `${accountId}; nothing added. Balance: ${result.balance}.`;
      print(
        !!options.json,
        { account_id: accountId, amount, reference: options.reference, added: result.added, balance: result.balance },
        text,
      );
    });
}
