import type { Sql } from './client.ts';
import { WRITABLE } from './primary.ts';

/** How often the PrimaryWatch asks which server is the primary. */
const WATCH_INTERVAL_MS = 1_000;

/**
 * Which server the service's writes reach now, and how many times that changed (fail-overs),
 * for /metrics (docs/product-rules.md R20.7). Asked every second on a connection of its own
 * through DATABASE_URL, so it sees what the request pool sees, past a pooler too:
 * `inet_server_addr()` and `inet_server_port()` name the server that ran the statement.
 */
export class PrimaryWatch {
  /** `host:port` of the primary at the last check; null while none answered as one. */
  current: string | null = null;
  /** Changes of primary seen by this process: one server, then another. */
  failovers = 0;
  private last: string | null = null;
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  constructor(private readonly sql: Sql) {}

  start(): void {
    this.timer ??= setInterval(() => void this.check(), WATCH_INTERVAL_MS).unref();
    void this.check();
  }

  async check(): Promise<void> {
    if (this.checking) return;
    this.checking = true;
    try {
      const [row] = await this.sql.unsafe<{ host: string | null; port: number | null; writable: boolean }[]>(
        `SELECT host(inet_server_addr()) AS host, inet_server_port() AS port, ${WRITABLE} AS writable`,
      );
      this.seen(!row.writable ? null : `${row.host ?? 'local'}:${row.port ?? ''}`);
    } catch {
      this.seen(null);
    } finally {
      this.checking = false;
    }
  }

  private seen(server: string | null): void {
    this.current = server;
    if (server === null) return;
    if (this.last !== null && this.last !== server) this.failovers += 1;
    this.last = server;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sql.end({ timeout: 1 });
  }
}
