import { pathToFileURL } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { hashApiKey, isWellFormedApiKey } from '../contract/api-key.ts';
import {
  AccountError,
  addCredits,
  createAccount,
  createApiKey,
  findAccount,
  findApiKeys,
  type LedgerEntry,
  ledgerEntries,
  listApiKeys,
  revokeApiKey,
  setAccountDisabled,
} from '../data/accounts.ts';
import { setDailyCap } from '../data/api-keys.ts';
import type { Sql } from '../data/client.ts';
import { owedCredits } from '../data/purchases.ts';
import { ingestLabels } from '../ingest/index.ts';
import { openDatabase } from './database.ts';

/**
 * `npm run admin -- …`: accounts, keys, credits and labels without SQL. Every command prints a
 * sentence for people or, with `--json`, one JSON object; bad input exits non-zero with a message.
 */
export interface AdminIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** An operator mistake (unknown account, negative amount…): exit code 1 with its message. */
class UsageError extends Error {}

const positiveId = (what: string) => (value: string) => {
  if (!/^[1-9][0-9]{0,15}$/.test(value))
    throw new UsageError(`${what} must be a positive whole number, got ${JSON.stringify(value)}.`);
  return Number(value);
};

const positiveAmount = (value: string) => {
  if (!/^[1-9][0-9]{0,12}$/.test(value))
    throw new UsageError(`AMOUNT must be a positive whole number of credits, got ${JSON.stringify(value)}.`);
  return Number(value);
};

/** An option parser: commander reports the message itself. */
const dailyCap = (value: string): number | 'none' => {
  if (value === 'none') return value;
  if (!/^[1-9][0-9]{0,12}$/.test(value))
    throw new InvalidArgumentError('--daily must be a positive whole number of credits, or "none".');
  return Number(value);
};

/** An option parser: commander reports the message itself. */
const ledgerLimit = (value: string) => {
  if (!/^[1-9][0-9]{0,5}$/.test(value)) throw new InvalidArgumentError('--limit must be a positive whole number.');
  return Number(value);
};

function describeEntry(entry: LedgerEntry): string {
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

const entryJson = (entry: LedgerEntry) => ({ ...entry, created_at: entry.created_at.toISOString() });

function buildProgram(sql: Sql, io: AdminIo): Command {
  const program = new Command('admin')
    .description(
      'Manage accounts, API keys, credits and advertiser labels of the Advertiser and Landing-Domain Lookup API.',
    )
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(add --help for usage)');

  // Each command prints either its JSON object or its text.
  const print = (json: boolean, value: unknown, text: string) =>
    io.out(json ? `${JSON.stringify(value)}\n` : `${text}\n`);
  const jsonOption = () => new Option('--json', 'print the result as one JSON object');

  async function requireAccount(accountId: number) {
    const account = await findAccount(sql, accountId);
    if (!account) throw new UsageError(`Account ${accountId} does not exist.`);
    return account;
  }

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
      const keys = await listApiKeys(sql, found.id);
      const ledger = await ledgerEntries(sql, found.id, options.limit);
      const text = [
        `Account ${found.id}${found.email ? ` (${found.email})` : ''}: ` +
          `${found.disabled ? 'disabled' : 'enabled'}, balance ${found.balance} credits`,
        `Keys (${keys.length}):`,
        ...keys.map((k) => `  #${k.id}  ${k.display_prefix}…  ${k.state}  created ${k.created_at.toISOString()}`),
        `Recent ledger (newest first, up to ${options.limit}):`,
        ...ledger.map((e) => `  ${describeEntry(e)}`),
      ].join('\n');
      print(!!options.json, { ...found, keys, ledger: ledger.map(entryJson) }, text);
    });

  const key = program.command('key').description('create, revoke and list API keys');
  key
    .command('create <accountId>')
    .description(
      "create a key and print it once; the account's first live key ever brings 200 free credits; " +
        '--test makes a test key (alk_test_…): free calls on the sandbox’s demo data',
    )
    .option('--test', 'a test key for the sandbox')
    .addOption(jsonOption())
    .action(async (rawId: string, options: { json?: boolean; test?: boolean }) => {
      const accountId = positiveId('ACCOUNT_ID')(rawId);
      await requireAccount(accountId);
      const created = await createApiKey(sql, accountId, { test: options.test === true });
      const value = {
        id: created.id,
        account_id: accountId,
        key: created.key,
        display_prefix: created.displayPrefix,
        test: options.test === true,
        granted: created.granted,
        balance: created.balance,
      };
      const grant = options.test
        ? 'A test key: its calls are free and answer from the sandbox.'
        : created.granted > 0
          ? ` It brought ${created.granted} free credits.`
          : '';
      print(
        !!options.json,
        value,
        `API key for account ${accountId} (shown once, never again; store it now):\n${created.key}\n` +
          `${grant.trim() || 'No grant: the account had a key before.'} Balance: ${created.balance} credits.`,
      );
    });
  key
    .command('revoke <keyPrefixOrId>')
    .description(
      'revoke a key, named by its id, its display prefix or its full value; it answers 401 from the next request on',
    )
    .addOption(jsonOption())
    .action(async (reference: string, options: { json?: boolean }) => {
      const matches = /^[0-9]+$/.test(reference)
        ? await findApiKeys(sql, { id: positiveId('KEY_ID')(reference) })
        : isWellFormedApiKey(reference)
          ? await findApiKeys(sql, { hash: hashApiKey(reference) })
          : await findApiKeys(sql, { displayPrefix: reference });
      if (matches.length === 0)
        throw new UsageError(`No key has the id or display prefix ${JSON.stringify(reference)}.`);
      if (matches.length > 1)
        throw new UsageError(
          `${matches.length} keys share the display prefix ${JSON.stringify(reference)}; ` +
            `revoke by id: ${matches.map((k) => k.id).join(', ')}.`,
        );
      const [target] = matches;
      const revoked = await revokeApiKey(sql, target.id);
      const text = revoked
        ? `Revoked key #${target.id} (${target.display_prefix}…) of account ${target.account_id}.`
        : `Key #${target.id} (${target.display_prefix}…) was already revoked; nothing changed.`;
      print(
        !!options.json,
        {
          id: target.id,
          account_id: target.account_id,
          display_prefix: target.display_prefix,
          revoked: true,
          changed: revoked,
        },
        text,
      );
    });
  key
    .command('cap <keyId>')
    .description("set or remove a key's daily cap: the credits it may spend per UTC day, refunds deducted")
    .requiredOption('--daily <credits>', 'a positive whole number of credits, or "none" to remove the cap', dailyCap)
    .addOption(jsonOption())
    .action(async (rawId: string, options: { daily: number | 'none'; json?: boolean }) => {
      const keyId = positiveId('KEY_ID')(rawId);
      // The parser keeps the word: a null from an option parser did not reach the action as null.
      const cap = options.daily === 'none' ? null : options.daily;
      const [target] = await findApiKeys(sql, { id: keyId });
      if (target === undefined) throw new UsageError(`No key has the id ${keyId}.`);
      if (!(await setDailyCap(sql, target.account_id, keyId, cap)))
        throw new UsageError(`Key #${keyId} is revoked; a revoked key needs no cap.`);
      const text =
        cap === null
          ? `Key #${keyId} (${target.display_prefix}…) has no daily cap now.`
          : `Key #${keyId} (${target.display_prefix}…) may spend ${cap} credits per UTC day from now on.`;
      print(!!options.json, { id: keyId, account_id: target.account_id, daily_cap: cap }, text);
    });
  key
    .command('list <accountId>')
    .description("list an account's keys with display prefix and state")
    .addOption(jsonOption())
    .action(async (rawId: string, options: { json?: boolean }) => {
      const accountId = positiveId('ACCOUNT_ID')(rawId);
      await requireAccount(accountId);
      const keys = await listApiKeys(sql, accountId);
      const text =
        keys.length === 0
          ? `Account ${accountId} has no keys.`
          : keys
              .map((k) => `#${k.id}  ${k.display_prefix}…  ${k.state}  created ${k.created_at.toISOString()}`)
              .join('\n');
      print(!!options.json, { account_id: accountId, keys }, text);
    });

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

  program
    .command('label')
    .description('manual advertiser labels')
    .command('set <name> <type>')
    .description('label an advertiser name agency or direct, or none to clear the label')
    .addOption(jsonOption())
    .action(async (name: string, type: string, options: { json?: boolean }) => {
      if (!['agency', 'direct', 'none'].includes(type)) throw new UsageError('TYPE must be agency, direct or none.');
      // The same validation and storage as a labels file, so both ways of labelling agree.
      const summary = await ingestLabels(sql, [{ advertiser_name: name, advertiser_type: type }]);
      if (summary.rejected > 0) throw new UsageError(`Label refused: ${summary.rejects[0].reason}.`);
      const advertiserType = type === 'none' ? null : type;
      const changed = summary.new + summary.updated > 0;
      const text =
        `${JSON.stringify(name)} ` +
        `${advertiserType ? `is labelled ${advertiserType}` : 'has no label'}${changed ? '' : ' (unchanged)'}.`;
      print(!!options.json, { advertiser_name: name, advertiser_type: advertiserType, changed }, text);
    });

  return program;
}

/** Runs one admin command line against `sql`; returns the process exit code. */
export async function runAdmin(argv: string[], sql: Sql, io: AdminIo): Promise<number> {
  const program = buildProgram(sql, io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are successful exits; usage errors were already explained by commander.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof UsageError || error instanceof AccountError) {
      io.err(`admin: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

async function main(): Promise<void> {
  const io: AdminIo = { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text) };
  const argv = process.argv.slice(2);
  // Help needs no database.
  const helpOnly = argv.length === 0 || argv.includes('--help') || argv.includes('-h') || argv[0] === 'help';
  if (helpOnly) {
    process.exitCode = await runAdmin(argv.length === 0 ? ['--help'] : argv, null as unknown as Sql, io);
    return;
  }
  const database = await openDatabase();
  try {
    process.exitCode = await runAdmin(argv, database.sql, io);
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(`admin: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
