import { type ConnectOptions, connect, type Sql } from './client.ts';
import { errorCode, isRecoveryConflict, isUnavailable } from './errors.ts';
import { databaseServers, singleServerUrl } from './primary.ts';

/** How often the primary's WAL position is sampled and each replica is checked. */
export const REPLICA_CHECK_INTERVAL_MS = 250;
/** A replica whose check has not answered in this long is down: a lookup there would wait as long. */
const CHECK_TIMEOUT_MS = 1_000;
/** How long the primary's WAL positions are kept: a replica further behind shows this much lag, at least. */
const POSITIONS_KEPT_MS = 15 * 60_000;

/**
 * `up`: serves lookups; `lagging`: answers, but further behind the primary than READ_MAX_LAG_MS,
 * so lookups skip it until it catches up; `down`: does not answer (or is no replica in recovery).
 */
export type ReplicaState = 'up' | 'lagging' | 'down';

export interface ReplicaStatus {
  /** `host:port/dbname`: names the replica to operators without its credentials. */
  database: string;
  state: ReplicaState;
  /** How far its replay is behind the primary, in milliseconds; null while it is down. */
  lagMs: number | null;
  /** Lookups run on it since the start (a lookup it failed and the primary answered counts on both). */
  lookups: number;
}

export interface ReplicaOptions {
  /** The primary's URL: its WAL position is the measure of every replica's lag. */
  primaryUrl: string;
  urls: readonly string[];
  maxLagMs: number;
  /** Connections of each replica's lookup pool, and their options: those of the primary's request pool. */
  poolSize: number;
  connectOptions: ConnectOptions;
  /** Where a replica's change of state is told to the operator. */
  log: (line: string) => void;
}

interface Replica extends ReplicaStatus {
  pool: Sql;
  /** Its own connection, so a check never queues behind lookups (a busy replica is not a down one). */
  check: Sql;
  /** Why it is down, for the log. */
  why: string;
  /** The state last told to the operator. */
  told: ReplicaState | undefined;
}

/**
 * Where lookups read: a replica that is up, in turn among several, else the primary. Only the
 * lookups come here; debits, refunds and every other statement use the primary's pool directly.
 * Without replicas every lookup reads the primary and nothing is checked.
 *
 * A replica's lag is measured with this process's clock only, never by comparing clocks across
 * machines: each check samples the primary's `pg_current_wal_lsn()`, keeping the moment each new
 * position was first seen; a replica's lag is the time since the first position it has not
 * replayed (`pg_last_wal_replay_lsn()`) was seen, 0 when it has replayed them all. The true lag
 * is at most one check interval more.
 */
export class ReadReplicas {
  /** `host:port/dbname` of the primary. */
  readonly primaryName: string;
  private primaryLookups = 0;
  private readonly replicas: Replica[];
  private readonly primaryCheck: Sql | undefined;
  private readonly positions = new WalPositions();
  private readonly maxLagMs: number;
  private readonly log: (line: string) => void;
  private next = 0;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly primary: Sql,
    options?: ReplicaOptions,
  ) {
    this.primaryName = options ? databaseName(options.primaryUrl) : '';
    this.maxLagMs = options?.maxLagMs ?? 0;
    this.log = options?.log ?? (() => {});
    const checkOptions = {
      connectTimeoutMs: Math.min(options?.connectOptions.connectTimeoutMs ?? CHECK_TIMEOUT_MS, CHECK_TIMEOUT_MS),
      statementTimeoutMs: CHECK_TIMEOUT_MS,
      fetchArrayTypes: false,
    };
    this.replicas = (options?.urls ?? []).map((url) => ({
      database: databaseName(url),
      state: 'down',
      lagMs: null,
      lookups: 0,
      pool: connect(url, options!.poolSize, options!.connectOptions),
      check: connect(url, 1, checkOptions),
      why: 'not checked yet',
      told: undefined,
    }));
    this.primaryCheck = options && this.replicas.length > 0 ? connect(options.primaryUrl, 1, checkOptions) : undefined;
  }

  get configured(): boolean {
    return this.replicas.length > 0;
  }

  /** Checks every replica once (so the first lookups already read there), then every interval until `close`. */
  async start(): Promise<void> {
    if (!this.configured) return;
    await this.checkAll();
  }

  /**
   * Runs `lookup` on a replica that is up, else on the primary. A replica that fails it because it
   * went away (stopped mid-query, unreachable) or cancelled it for a conflict with its replay gets
   * it run again on the primary, so the caller never sees the replica's failure. Any other
   * failure, a data 404 or a statement timeout among them, is the lookup's answer and is not run twice.
   */
  async read<T>(lookup: (data: Sql) => Promise<T>): Promise<T> {
    const replica = this.pick();
    if (replica) {
      replica.lookups++;
      try {
        return await lookup(replica.pool);
      } catch (error) {
        // 57014: the replica ran the statement until the statement timeout; the primary would take as long.
        const gone = isUnavailable(error) && errorCode(error) !== '57014';
        if (!gone && !isRecoveryConflict(error)) throw error;
        if (gone) {
          // Until the next check proves it back, the calls behind this one go straight to the primary.
          replica.state = 'down';
          replica.lagMs = null;
          replica.why = error instanceof Error ? error.message : String(error);
        }
      }
    }
    this.primaryLookups++;
    return lookup(this.primary);
  }

  /** Each replica's state and lag at its last check, for /readyz and /metrics. */
  status(): ReplicaStatus[] {
    return this.replicas.map(({ database, state, lagMs, lookups }) => ({ database, state, lagMs, lookups }));
  }

  /** Lookups run on the primary since the start. */
  lookupsOnPrimary(): number {
    return this.primaryLookups;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.round;
    const pools = this.replicas.flatMap((replica) => [replica.pool, replica.check]);
    if (this.primaryCheck) pools.push(this.primaryCheck);
    await Promise.all(pools.map((pool) => pool.end({ timeout: 1 })));
  }

  private pick(): Replica | undefined {
    for (let i = 0; i < this.replicas.length; i++) {
      const index = (this.next + i) % this.replicas.length;
      if (this.replicas[index].state === 'up') {
        this.next = (index + 1) % this.replicas.length;
        return this.replicas[index];
      }
    }
    return undefined;
  }

  /** One round of checks; the next is scheduled when it ends, so rounds never pile up behind a slow database. */
  private checkAll(): Promise<void> {
    this.round = (async () => {
      try {
        const [{ lsn }] = await within(this.primaryCheck!<{ lsn: string }[]>`SELECT pg_current_wal_lsn()::text AS lsn`);
        this.positions.seen(parseLsn(lsn), performance.now());
      } catch {
        // The primary's outage shows on /readyz and in the calls themselves; the replicas' lag is
        // measured against the positions already seen.
      }
      await Promise.all(this.replicas.map((replica) => this.checkReplica(replica)));
    })();
    void this.round.then(() => {
      if (!this.closed) this.timer = setTimeout(() => void this.checkAll(), REPLICA_CHECK_INTERVAL_MS).unref();
    });
    return this.round;
  }

  private async checkReplica(replica: Replica): Promise<void> {
    try {
      const [{ following, replayed }] = await within(
        replica.check<{ following: boolean; replayed: string | null }[]>`
          SELECT pg_is_in_recovery() AS following, pg_last_wal_replay_lsn()::text AS replayed`,
      );
      // A server out of recovery (a promoted replica, a primary) no longer follows this primary.
      if (!following || replayed === null) throw new Error('it is not a replica in recovery');
      replica.lagMs = Math.round(this.positions.lagMs(parseLsn(replayed), performance.now()));
      replica.state = replica.lagMs <= this.maxLagMs ? 'up' : 'lagging';
    } catch (error) {
      replica.state = 'down';
      replica.lagMs = null;
      replica.why = error instanceof Error ? error.message : String(error);
    }
    this.tell(replica);
  }

  private tell(replica: Replica): void {
    if (replica.state === replica.told) return;
    const first = replica.told === undefined;
    replica.told = replica.state;
    const name = `Read replica ${replica.database}`;
    if (replica.state === 'up') this.log(`${name} serves lookups${first ? '' : ' again'}`);
    else if (replica.state === 'lagging')
      this.log(`${name} is ${replica.lagMs} ms behind the primary (over ${this.maxLagMs} ms): lookups skip it`);
    else this.log(`${name} is down (${replica.why}): lookups skip it`);
  }
}

/**
 * The primary's WAL positions, each with the moment this process first saw it; positions only
 * grow, so the list is in order of both.
 */
class WalPositions {
  private readonly positions: { lsn: bigint; at: number }[] = [];

  seen(lsn: bigint, at: number): void {
    const last = this.positions.at(-1);
    if (last && lsn <= last.lsn) return;
    this.positions.push({ lsn, at });
    while (this.positions.length > 1 && this.positions[0].at < at - POSITIONS_KEPT_MS) this.positions.shift();
  }

  /** How long the primary has held WAL that a replica which replayed up to `replayed` lacks, as of `now`. */
  lagMs(replayed: bigint, now: number): number {
    const missing = this.positions.find((position) => position.lsn > replayed);
    return missing === undefined ? 0 : Math.max(0, now - missing.at);
  }
}

/** `16/B374D848` → its byte position. */
function parseLsn(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** `host:port/dbname` of a database URL; its user and password are left out. */
export function databaseName(url: string): string {
  const servers = databaseServers(url);
  const parsed = new URL(singleServerUrl(url, servers[0]));
  const database = decodeURIComponent(parsed.pathname.slice(1)) || decodeURIComponent(parsed.username) || 'postgres';
  return `${servers.map(({ host, port }) => `${host}:${port}`).join(',')}/${database}`;
}

/** A check's answer, or a rejection once it has taken CHECK_TIMEOUT_MS: a database that hangs is down. */
async function within<T>(check: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([check, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
