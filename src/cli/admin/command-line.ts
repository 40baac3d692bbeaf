import { type Command, InvalidArgumentError, Option } from 'commander';
import { type Account, findAccount } from '../../data/accounts.ts';
import type { Sql } from '../../data/client.ts';

/** Where the admin command line writes: standard output and error, or a test's buffers. */
export interface AdminIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

/** An operator mistake (unknown account, negative amount…): exit code 1 with its message. */
export class UsageError extends Error {}

/** What every command of `admin` is given: the database and how to answer. */
export interface AdminContext {
  sql: Sql;
  /** The database's URL, for a command that opens connections of its own (the sandbox's). */
  databaseUrl?: string;
  /** Prints either the command's JSON object (`--json`) or its text. */
  print(json: boolean, value: unknown, text: string): void;
  /** The account, or a UsageError saying it does not exist. */
  requireAccount(accountId: number): Promise<Account>;
}

/** Adds one command (with its subcommands) to the `admin` program. */
export type AdminCommand = (program: Command, context: AdminContext) => void;

export function adminContext(sql: Sql, io: AdminIo, databaseUrl?: string): AdminContext {
  return {
    sql,
    databaseUrl,
    print: (json, value, text) => io.out(json ? `${JSON.stringify(value)}\n` : `${text}\n`),
    async requireAccount(accountId) {
      const account = await findAccount(sql, accountId);
      if (!account) throw new UsageError(`Account ${accountId} does not exist.`);
      return account;
    },
  };
}

export const jsonOption = () => new Option('--json', 'print the result as one JSON object');

export const positiveId = (what: string) => (value: string) => {
  if (!/^[1-9][0-9]{0,15}$/.test(value))
    throw new UsageError(`${what} must be a positive whole number, got ${JSON.stringify(value)}.`);
  return Number(value);
};

export const positiveAmount = (value: string) => {
  if (!/^[1-9][0-9]{0,12}$/.test(value))
    throw new UsageError(`AMOUNT must be a positive whole number of credits, got ${JSON.stringify(value)}.`);
  return Number(value);
};

/** An option parser: commander reports the message itself. */
export const dailyCap = (value: string): number | 'none' => {
  if (value === 'none') return value;
  if (!/^[1-9][0-9]{0,12}$/.test(value))
    throw new InvalidArgumentError('--daily must be a positive whole number of credits, or "none".');
  return Number(value);
};

/** An option parser: commander reports the message itself. */
export const ledgerLimit = (value: string) => {
  if (!/^[1-9][0-9]{0,5}$/.test(value)) throw new InvalidArgumentError('--limit must be a positive whole number.');
  return Number(value);
};
