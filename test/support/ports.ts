import net from 'node:net';

/** The Linux default ephemeral range starts here; the ports below it are never an outgoing connection's own. */
const BELOW_EPHEMERAL = { from: 20_000, to: 32_767 };

/**
 * A port for a server a test starts later (an embedded PostgreSQL): free now, and outside the
 * ephemeral range, so the many connections the other test files open at the same time cannot take
 * it as their local port before the server binds it (a port from `listen(0)` could be).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = BELOW_EPHEMERAL.from + Math.floor(Math.random() * (BELOW_EPHEMERAL.to - BELOW_EPHEMERAL.from));
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
