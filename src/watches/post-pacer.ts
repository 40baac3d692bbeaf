/**
 * Paces the watch news posts of one process (docs/product-rules.md §19, "Delivery and billing of
 * watch news"): at most `perSecond` posts start each second and `inFlight` run at once, across
 * every claim. Delivery shares the process and the machine with the API's calls, and a burst of
 * thousands of signed HTTPS posts would take the cores the lookups need; paced, the lookups keep
 * their latency and the news still goes out far faster than a load produces it.
 */
export class PostPacer {
  readonly #gapMs: number;
  #nextStart = 0;

  constructor(
    perSecond: number,
    readonly inFlight: number,
  ) {
    this.#gapMs = 1000 / perSecond;
  }

  /** Sends every item, paced; the results in the items' order. */
  async each<T, R>(items: readonly T[], send: (item: T) => Promise<R>): Promise<R[]> {
    const results: R[] = new Array(items.length);
    let next = 0;
    const worker = async () => {
      while (next < items.length) {
        const index = next++;
        await this.#slot();
        results[index] = await send(items[index]);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.inFlight, items.length) }, worker));
    return results;
  }

  /** Waits for the next start the rate allows. */
  #slot(): Promise<void> {
    const now = performance.now();
    const start = Math.max(now, this.#nextStart);
    this.#nextStart = start + this.#gapMs;
    return start - now < 1 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, start - now));
  }
}
