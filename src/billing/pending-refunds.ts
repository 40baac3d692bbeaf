import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type OwedRefund, settleOwedRefund } from '../data/billing.ts';
import type { Sql } from '../data/client.ts';
import { isUnavailable } from '../data/errors.ts';
import { databaseServers, singleServerUrl } from '../data/primary.ts';
import { isProcessAlive } from './process-alive.ts';

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;

export interface PendingRefundsOptions {
  /** Where owed refunds are written until they are made; without it they are kept in memory only. */
  directory?: string;
  /** The database they are owed in: a file names it, and only files of this database are adopted. */
  databaseUrl?: string;
  log?: (line: string) => void;
}

/**
 * The refunds the service owes but could not make when the call failed, because the database was
 * unreachable at that moment (the debit and the refund are separate commits). Each is written to
 * a file of this process before the caller is answered, retried until the database takes it, and
 * made at most once (settleOwedRefund). A later process on the same database adopts the file of
 * one that died first, so a refund survives a crash or a restart of the service; it is lost only
 * with the file itself.
 */
export class PendingRefunds {
  readonly #owed = new Map<string, OwedRefund>();
  readonly #file: string | undefined;
  readonly #log: (line: string) => void;
  #writing: Promise<void> = Promise.resolve();
  #nextWrite: Promise<void> | undefined;
  #settling: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #retryMs = FIRST_RETRY_MS;
  #stopped = false;

  constructor(
    private readonly sql: Sql,
    private readonly options: PendingRefundsOptions = {},
  ) {
    this.#log = options.log ?? (() => {});
    if (options.directory && options.databaseUrl) {
      this.#file = path.join(options.directory, `${databaseKey(options.databaseUrl)}.${process.pid}.json`);
    }
  }

  get size(): number {
    return this.#owed.size;
  }

  /** Records a refund owed; it is on disk when this resolves (unless the disk failed, which is logged). */
  async owe(refund: OwedRefund): Promise<void> {
    this.#owed.set(identify(refund), refund);
    this.#log(
      `Refund owed for request ${refund.requestId} (the database is unreachable); it is made once the database is back`,
    );
    await this.#persist();
    this.#schedule(FIRST_RETRY_MS);
  }

  /** Takes over what earlier processes on this database left owed when they ended first. */
  async adoptLeftovers(): Promise<number> {
    const { directory, databaseUrl } = this.options;
    if (!directory || !databaseUrl) return 0;
    const prefix = `${databaseKey(databaseUrl)}.`;
    const names = await fs.readdir(directory).catch(() => [] as string[]);
    const adopted: string[] = [];
    for (const name of names) {
      const pid = Number(/^[0-9a-f]+\.([0-9]+)\.json$/.exec(name)?.[1]);
      if (!name.startsWith(prefix) || !pid || pid === process.pid || isProcessAlive(pid)) continue;
      const file = path.join(directory, name);
      try {
        const owed = JSON.parse(await fs.readFile(file, 'utf8')) as OwedRefund[];
        for (const refund of owed) this.#owed.set(identify(refund), refund);
        adopted.push(file);
      } catch (error) {
        this.#log(`Could not read the owed refunds in ${file}; left in place: ${(error as Error).message}`);
      }
    }
    if (adopted.length === 0) return 0;
    await this.#persist();
    await Promise.all(adopted.map((file) => fs.rm(file, { force: true })));
    this.#log(`Adopted ${this.#owed.size} owed refunds left by an earlier run`);
    this.#schedule(0);
    return adopted.length;
  }

  /** Tries to make every owed refund now, again until none is left or `timeoutMs` passed; returns how many remain. */
  async settle(timeoutMs = 0): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      await this.#settleOnce();
      if (this.#owed.size === 0 || performance.now() >= deadline) return this.#owed.size;
      await new Promise((resolve) => setTimeout(resolve, FIRST_RETRY_MS));
    }
  }

  /** Stops retrying; what is still owed stays on disk for the next start. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#settling;
    await this.#writing;
  }

  #schedule(delayMs: number): void {
    if (this.#timer !== undefined || this.#stopped) return;
    this.#timer = setTimeout(async () => {
      await this.#settleOnce();
      this.#timer = undefined;
      if (this.#owed.size === 0) {
        this.#retryMs = FIRST_RETRY_MS;
        return;
      }
      this.#retryMs = Math.min(this.#retryMs * 2, LAST_RETRY_MS);
      this.#schedule(this.#retryMs);
    }, delayMs);
    // Owed refunds never keep the process alive; the file keeps them.
    this.#timer.unref();
  }

  /** One pass over what is owed; stops at the first sign that the database is still away. */
  #settleOnce(): Promise<void> {
    this.#settling ??= (async () => {
      let changed = false;
      for (const [id, refund] of [...this.#owed]) {
        try {
          const made = await settleOwedRefund(this.sql, refund);
          this.#owed.delete(id);
          changed = true;
          this.#log(
            made
              ? `Refunded ${made.refunded} credits owed for request ${refund.requestId}`
              : `Nothing to refund for request ${refund.requestId}: ` +
                  `${refund.kind === 'uncertain' ? 'its debit never committed' : 'already refunded'}`,
          );
        } catch (error) {
          if (isUnavailable(error)) break;
          this.#log(`Refund for request ${refund.requestId} failed, retrying later: ${(error as Error).message}`);
        }
      }
      if (changed) await this.#persist();
    })().finally(() => {
      this.#settling = undefined;
    });
    return this.#settling;
  }

  /**
   * Writes what is owed, after any write under way; the file is replaced whole, never half-written.
   * Calls that come while a write is under way share the next one, so a burst of failures costs a
   * few writes, not one each.
   */
  #persist(): Promise<void> {
    const file = this.#file;
    if (!file) return Promise.resolve();
    this.#nextWrite ??= this.#writing = this.#writing.then(async () => {
      this.#nextWrite = undefined; // what changes from now on needs a later write
      await this.#write(file, [...this.#owed.values()]);
    });
    return this.#nextWrite;
  }

  async #write(file: string, owed: OwedRefund[]): Promise<void> {
    try {
      if (owed.length === 0) return await fs.rm(file, { force: true });
      await fs.mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.tmp`;
      const handle = await fs.open(temporary, 'w');
      try {
        await handle.writeFile(JSON.stringify(owed));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(temporary, file);
    } catch (error) {
      this.#log(`Could not write the owed refunds to ${file} (they are kept in memory): ${(error as Error).message}`);
    }
  }
}

const identify = (refund: OwedRefund) =>
  refund.kind === 'charge' ? `charge:${refund.chargeId}` : `uncertain:${refund.callId}`;

/** The database a URL names, without its credentials: host, port (each, for several) and database name. */
function databaseKey(url: string): string {
  const servers = databaseServers(url);
  const { pathname } = new URL(singleServerUrl(url, servers[0]));
  return createHash('sha256')
    .update(`${servers.map(({ host, port }) => `${host}:${port}`).join(',')}${pathname}`)
    .digest('hex')
    .slice(0, 16);
}
