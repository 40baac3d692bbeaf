import type { Duplex } from 'node:stream';

/** The callbacks waiting for each connection's close, behind one listener per connection. */
const waiting = new WeakMap<Duplex, Set<() => void>>();

/**
 * Calls `callback` once `socket` has closed (soon when it already has), and returns what stops
 * waiting. One 'close' listener per connection serves every answer waiting on it, however many
 * requests a client pipelines.
 *
 * Node emits 'close' on the answer it is writing when its connection closes, but not on the
 * answers queued behind it on that connection (pipelined requests; Node 20): those learn it here.
 */
export function whenConnectionCloses(socket: Duplex, callback: () => void): () => void {
  if (socket.destroyed) {
    // Its 'close' may have been emitted already; called after the caller holds what stops it.
    let stopped = false;
    queueMicrotask(() => {
      if (!stopped) callback();
    });
    return () => {
      stopped = true;
    };
  }
  let callbacks = waiting.get(socket);
  if (callbacks === undefined) {
    const created = new Set<() => void>();
    callbacks = created;
    waiting.set(socket, created);
    socket.once('close', () => {
      waiting.delete(socket);
      for (const waiter of created) waiter();
    });
  }
  const own = callbacks;
  own.add(callback);
  return () => own.delete(callback);
}
