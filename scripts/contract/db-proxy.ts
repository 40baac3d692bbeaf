import net from 'node:net';
import { Transform } from 'node:stream';

/**
 * A TCP relay between the service and PostgreSQL, so the contract run can take the database
 * away from the live service for real (503) and give it back, on an embedded or external server.
 */
export interface DatabaseProxy {
  /** The database URL with host and port replaced by the relay's. */
  url: string;
  /** Drops every open connection and refuses new ones, as a crashed or unreachable server would. */
  cut(): void;
  /** From now on the server's replies are lost on the way (its work still happens), as on a failing network. */
  swallowReplies(): void;
  restore(): void;
  close(): Promise<void>;
}

export async function startDatabaseProxy(databaseUrl: string): Promise<DatabaseProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  let refusing = false;
  let swallowing = false;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server = net.createServer((client) => {
    if (refusing) {
      // A reset, as a port nobody listens on answers: the client sees the connection fail
      // instead of a connection that opens and closes (which postgres.js retries without end).
      client.resetAndDestroy();
      return;
    }
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream
      .pipe(new Transform({ transform: (chunk, _encoding, done) => done(null, swallowing ? undefined : chunk) }))
      .pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    cut() {
      refusing = true;
      for (const socket of sockets) socket.destroy();
    },
    swallowReplies() {
      swallowing = true;
    },
    restore() {
      refusing = false;
      swallowing = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
