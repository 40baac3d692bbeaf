import { generateApiKey, hashApiKey } from '../../src/contract/api-key.ts';
import { contractOperations } from '../../src/contract/operations.ts';
import { addCredits, createAccount, createApiKey, setAccountDisabled } from '../../src/data/accounts.ts';
import { revokeApiKey } from '../../src/data/api-keys.ts';
import type { Sql } from '../../src/data/client.ts';
import { DEMO } from '../../src/synthetic/generator.ts';

/** Every kind of key the fuzzing sends, so each reason for 401 and 402 is produced. */
export interface FuzzKeys {
  /** The demo account's key printed at start-up, topped up so the run never runs dry. */
  funded: string;
  /** A key whose balance is below every price (0, the search costing 1): 402 on every billed operation. */
  poor: string;
  revoked: string;
  /** A valid key of a disabled account. */
  disabled: string;
  /** Well formed, checksum right, never issued. */
  unknown: string;
  /** The funded key with a wrong checksum. */
  malformed: string;
}

export interface PreparedKeys {
  keys: FuzzKeys;
  fundedAccountId: number;
  poorAccountId: number;
}

const FUZZ_CREDITS = 100_000_000;

export async function prepareKeys(sql: Sql, baseUrl: string, demoKey: string): Promise<PreparedKeys> {
  const [demo] = await sql<
    { account_id: number }[]
  >`SELECT account_id FROM api_keys WHERE key_hash = ${hashApiKey(demoKey)}`;
  if (!demo) throw new Error('the demo key printed at start-up is not in the database');
  await addCredits(sql, demo.account_id, FUZZ_CREDITS, `contract-fuzz-${Date.now()}`);

  const poor = await newKey(sql);
  // The poor key's grant of 200 is spent through the API itself, so its ledger is ordinary charges.
  const spend: [string, number][] = [
    [`/api/v1/brandbid?domain=${DEMO.brandDomain}`, 3],
    [`/api/v1/advertiser/domains?name=${encodeURIComponent(DEMO.intermediaryName)}`, 1],
    [`/api/v1/advertiser?name=${encodeURIComponent(DEMO.brandName)}`, 1],
    [`/api/v1/advertisers/search?q=${encodeURIComponent(DEMO.brandName)}`, 2],
  ];
  for (const [path, times] of spend) {
    for (let i = 0; i < times; i++) {
      const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${poor.key}` } });
      if (response.status !== 200)
        throw new Error(`spending the poor key's grant: ${path} answered ${response.status}`);
    }
  }
  const balance = Number(
    (await fetch(`${baseUrl}/api/v1/account`, { headers: { 'x-api-key': poor.key } })).headers.get(
      'x-credits-remaining',
    ),
  );
  const lowestPrice = Math.min(...contractOperations.filter((op) => op.creditCost > 0).map((op) => op.creditCost));
  if (balance >= lowestPrice)
    throw new Error(`the poor key should hold less than ${lowestPrice} credits, it holds ${balance}`);

  const revoked = await newKey(sql);
  await revokeApiKey(sql, revoked.id);
  const disabled = await newKey(sql);
  await setAccountDisabled(sql, disabled.accountId, true);

  const last = demoKey.at(-1) === 'A' ? 'B' : 'A';
  return {
    keys: {
      funded: demoKey,
      poor: poor.key,
      revoked: revoked.key,
      disabled: disabled.key,
      unknown: generateApiKey().key,
      malformed: demoKey.slice(0, -1) + last,
    },
    fundedAccountId: demo.account_id,
    poorAccountId: poor.accountId,
  };
}

async function newKey(sql: Sql) {
  const account = await createAccount(sql);
  const created = await createApiKey(sql, account.id);
  return { key: created.key, id: created.id, accountId: account.id };
}
