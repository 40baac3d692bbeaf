import type { Command } from 'commander';
import {
  type ApiKey,
  createApiKey,
  keyState,
  keysNamedBy,
  keysOf,
  revokeApiKey,
  setDailyCap,
} from '../../accounts/keys.ts';
import { type AdminContext, dailyCap, jsonOption, positiveId, UsageError } from './command-line.ts';

/** An account's keys as the operator lists them: by id, oldest first. */
export async function keysById(sql: AdminContext['sql'], accountId: number): Promise<ApiKey[]> {
  return (await keysOf(sql, accountId)).sort((a, b) => a.id - b.id);
}

/** A key as `--json` prints it: what the operator needs, never the plaintext (never stored). */
export const keyJson = (key: ApiKey) => ({
  id: key.id,
  account_id: key.accountId,
  display_prefix: key.displayPrefix,
  state: keyState(key),
  created_at: key.createdAt,
  revoked_at: key.revokedAt,
});

/** One key as a line for people (`key list`, `account show`). */
export const describeKey = (key: ApiKey) =>
  `#${key.id}  ${key.displayPrefix}…  ${keyState(key)}  created ${key.createdAt.toISOString()}`;

/** `admin key create | revoke | cap | list`. */
export function keyCommand(program: Command, { sql, print, requireAccount }: AdminContext): void {
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
      const matches = await keysNamedBy(
        sql,
        /^[0-9]+$/.test(reference) ? { id: positiveId('KEY_ID')(reference) } : { text: reference },
      );
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
        ? `Revoked key #${target.id} (${target.displayPrefix}…) of account ${target.accountId}.`
        : `Key #${target.id} (${target.displayPrefix}…) was already revoked; nothing changed.`;
      print(
        !!options.json,
        {
          id: target.id,
          account_id: target.accountId,
          display_prefix: target.displayPrefix,
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
      const [target] = await keysNamedBy(sql, { id: keyId });
      if (target === undefined) throw new UsageError(`No key has the id ${keyId}.`);
      if (!(await setDailyCap(sql, target.accountId, keyId, cap)))
        throw new UsageError(`Key #${keyId} is revoked; a revoked key needs no cap.`);
      const text =
        cap === null
          ? `Key #${keyId} (${target.displayPrefix}…) has no daily cap now.`
          : `Key #${keyId} (${target.displayPrefix}…) may spend ${cap} credits per UTC day from now on.`;
      print(!!options.json, { id: keyId, account_id: target.accountId, daily_cap: cap }, text);
    });
  key
    .command('list <accountId>')
    .description("list an account's keys with display prefix and state")
    .addOption(jsonOption())
    .action(async (rawId: string, options: { json?: boolean }) => {
      const accountId = positiveId('ACCOUNT_ID')(rawId);
      await requireAccount(accountId);
      const keys = await keysById(sql, accountId);
      const text = keys.length === 0 ? `Account ${accountId} has no keys.` : keys.map(describeKey).join('\n');
      print(!!options.json, { account_id: accountId, keys: keys.map(keyJson) }, text);
    });
}
