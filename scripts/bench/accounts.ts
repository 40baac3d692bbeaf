import { hashApiKey } from '../../src/contract/api-key.ts';
import { addCredits, createAccount, createApiKey } from '../../src/data/accounts.ts';
import type { Sql } from '../../src/data/client.ts';

/** An account the benchmark created for this run, with its one key. */
export interface BenchAccount {
  /** Position in the run's list; the charge book counts by it. */
  index: number;
  accountId: number;
  keyId: number;
  key: string;
  keyHash: Buffer;
  /** Balance right after funding: the first-key grant plus the purchase. */
  funded: number;
}

/**
 * Creates `count` accounts through src/data/accounts.ts, each with one key (which brings the
 * first-key grant) and `credits` purchased on top, so that no request of the run meets a 402.
 * Fresh accounts every run: each one's whole ledger then belongs to this run.
 */
export async function createBenchAccounts(
  sql: Sql,
  { count, credits, tag, parallel = 8 }: { count: number; credits: number; tag: string; parallel?: number },
): Promise<BenchAccount[]> {
  const accounts = new Array<BenchAccount>(count);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < count; index = next++) {
      const account = await createAccount(sql, { email: `bench-${tag}-${index}@bench.invalid` });
      const created = await createApiKey(sql, account.id);
      const { balance } = await addCredits(sql, account.id, credits, `bench-${tag}-${index}`);
      accounts[index] = {
        index,
        accountId: account.id,
        keyId: created.id,
        key: created.key,
        keyHash: hashApiKey(created.key),
        funded: balance,
      };
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
  return accounts;
}

/** Request ids unique to the run, in the shape the service keeps (it echoes them and the ledger records them). */
export class RequestIds {
  private n = 0;
  constructor(private readonly tag: string) {}
  next(): string {
    this.n += 1;
    return `bench-${this.tag}-${this.n}`;
  }
}
