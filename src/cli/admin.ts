import { pathToFileURL } from 'node:url';
import { Command, CommanderError } from 'commander';
import { AccountError } from '../data/accounts.ts';
import type { Sql } from '../data/client.ts';
import { accountCommand } from './admin/account.ts';
import { type AdminCommand, type AdminIo, adminContext, UsageError } from './admin/command-line.ts';
import { creditsCommand } from './admin/credits.ts';
import { keyCommand } from './admin/key.ts';
import { labelCommand } from './admin/label.ts';
import { ledgerCommand } from './admin/ledger.ts';
import { sandboxCommand } from './admin/sandbox.ts';
import { openDatabase } from './database.ts';

export type { AdminIo } from './admin/command-line.ts';

/** The commands of `admin`, in the order its help lists them; each in its own file of admin/. */
const COMMANDS: readonly AdminCommand[] = [
  accountCommand,
  keyCommand,
  creditsCommand,
  ledgerCommand,
  labelCommand,
  sandboxCommand,
];

/**
 * `npm run admin -- …`: accounts, keys, credits and labels without SQL. Every command prints a
 * sentence for people or, with `--json`, one JSON object; bad input exits non-zero with a message.
 */
function buildProgram(sql: Sql, io: AdminIo, databaseUrl?: string): Command {
  const program = new Command('admin')
    .description(
      'Manage accounts, API keys, credits and advertiser labels of the Advertiser and Landing-Domain Lookup API.',
    )
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(add --help for usage)');
  const context = adminContext(sql, io, databaseUrl);
  for (const command of COMMANDS) command(program, context);
  return program;
}

/** Runs one admin command line against `sql`; returns the process exit code. */
export async function runAdmin(argv: string[], sql: Sql, io: AdminIo, databaseUrl?: string): Promise<number> {
  const program = buildProgram(sql, io, databaseUrl);
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
    process.exitCode = await runAdmin(argv, database.sql, io, database.url);
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
