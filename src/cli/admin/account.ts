import type { Command } from 'commander';
import { recentLedger } from '../../accounts/ledger.ts';
import { createAccount, setAccountDisabled } from '../../data/accounts.ts';
import { type AdminContext, jsonOption, ledgerLimit, positiveId } from './command-line.ts';
import { describeKey, keyJson, keysById } from './key.ts';
import { describeEntry, entryJson } from './ledger.ts';

/** `admin account create | disable | enable | show`. */
export function accountCommand(program: Command, { sql, print, requireAccount }: AdminContext): void {
  const account = program.command('account').description('create, disable, enable and show accounts');
  account
    .command('create')
    .description('create an account (it has no credits until its first key is created)')
    .option('--email <email>', 'contact address of the account holder')
    .addOption(jsonOption())
    .action(async (options: { email?: string; json?: boolean }) => {
      const created = await createAccount(sql, { email: options.email });
      print(
        !!options.json,
        created,
        `Created account ${created.id}${created.email ? ` (${created.email})` : ''}. ` +
          `Create its first key with: npm run admin -- key create ${created.id}`,
      );
    });
  for (const [name, disabled] of [
    ['disable', true],
    ['enable', false],
  ] as const) {
    account
      .command(`${name} <accountId>`)
      .description(
        disabled
          ? 'disable an account: all its keys answer 401 from the next request on'
          : 'enable a disabled account again',
      )
      .addOption(jsonOption())
      .action(async (rawId: string, options: { json?: boolean }) => {
        const accountId = positiveId('ACCOUNT_ID')(rawId);
        await requireAccount(accountId);
        await setAccountDisabled(sql, accountId, disabled);
        print(
          !!options.json,
          { id: accountId, disabled },
          `Account ${accountId} is ${disabled ? 'disabled' : 'enabled'}.`,
        );
      });
  }
  account
    .command('show <accountId>')
    .description('balance, keys (display prefix and state) and recent ledger entries')
    .option('--limit <n>', 'ledger entries to show', ledgerLimit, 10)
    .addOption(jsonOption())
    .action(async (rawId: string, options: { limit: number; json?: boolean }) => {
      const found = await requireAccount(positiveId('ACCOUNT_ID')(rawId));
      const keys = await keysById(sql, found.id);
      const ledger = await recentLedger(sql, found.id, options.limit);
      const text = [
        `Account ${found.id}${found.email ? ` (${found.email})` : ''}: ` +
          `${found.disabled ? 'disabled' : 'enabled'}, balance ${found.balance} credits`,
        `Keys (${keys.length}):`,
        ...keys.map((k) => `  ${describeKey(k)}`),
        `Recent ledger (newest first, up to ${options.limit}):`,
        ...ledger.map((e) => `  ${describeEntry(e)}`),
      ].join('\n');
      print(!!options.json, { ...found, keys: keys.map(keyJson), ledger: ledger.map(entryJson) }, text);
    });
}
