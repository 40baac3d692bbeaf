import { markKeysUsed } from '../data/api-keys.ts';
import type { Sql } from '../data/client.ts';

/** A key's "last used" time is kept to this precision (docs/product-rules.md R12.33). */
export const KEY_USE_PRECISION_MS = 60_000;

/**
 * Records when each key was last used (the account page lists it) without a write per call: a
 * key is marked at most once per KEY_USE_PRECISION_MS by this process, and the marks of the keys
 * used meanwhile go in one statement after the answer, never awaited by a call. A mark that fails
 * (the database is away) is dropped: the time is informational, and the next use marks it again.
 */
export class KeyUse {
  readonly #markedAt = new Map<number, number>();
  readonly #waiting = new Set<number>();
  #scheduled = false;

  constructor(private readonly sql: Sql) {}

  used(keyId: number): void {
    const now = Date.now();
    const last = this.#markedAt.get(keyId);
    if (last !== undefined && now - last < KEY_USE_PRECISION_MS) return;
    this.#markedAt.set(keyId, now);
    this.#waiting.add(keyId);
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => void this.flush());
  }

  /** Writes the marks waiting (the service does it on its own; tests may wait for it). */
  async flush(): Promise<void> {
    this.#scheduled = false;
    if (this.#waiting.size === 0) return;
    const keyIds = [...this.#waiting];
    this.#waiting.clear();
    // Forget keys not seen for a while, so the map holds only the keys in use.
    const stale = Date.now() - KEY_USE_PRECISION_MS;
    for (const [keyId, at] of this.#markedAt) if (at < stale) this.#markedAt.delete(keyId);
    await markKeysUsed(this.sql, keyIds).catch(() => {
      for (const keyId of keyIds) this.#markedAt.delete(keyId);
    });
  }
}
