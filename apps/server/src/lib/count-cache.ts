/**
 * Totals of list queries, kept a few seconds: the console asks for the `count` header with every
 * page, and counting costs far more than the page itself.
 * - Single flight: concurrent requests for the same key share one computation.
 * - Stale while revalidate: after `ttlMs` an entry is still answered (up to `maxStaleMs`) while one
 *   refresh runs in the background, so no request waits on a recount once a total is known.
 * - Any write in this process (`invalidate`) forgets every entry and every computation under way,
 *   so the writer's next list shows its change; another process's writes show after at most
 *   `ttlMs` plus one refresh.
 */
export class CountCache<T = unknown> {
  private readonly entries = new Map<string, { value: T; at: number }>();
  private readonly running = new Map<string, Promise<T>>();
  private generation = 0;
  private readonly maxEntries: number;
  private readonly maxStaleMs: number;
  private readonly onRefreshError: (error: unknown) => void;

  constructor(
    private readonly ttlMs: number,
    options: {
      maxEntries?: number;
      /** Older entries are not answered: the request waits for a new total (default 20 × ttl). */
      maxStaleMs?: number;
      /** A background refresh failed (the stale entry stays until it is too old). */
      onRefreshError?: (error: unknown) => void;
    } = {},
  ) {
    this.maxEntries = options.maxEntries ?? 500;
    this.maxStaleMs = options.maxStaleMs ?? ttlMs * 20;
    this.onRefreshError = options.onRefreshError ?? (() => {});
  }

  async get(key: string, now: number, compute: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit) {
      const age = now - hit.at;
      if (age < this.ttlMs) return hit.value;
      if (age < this.maxStaleMs) {
        this.compute(key, now, compute).catch(this.onRefreshError);
        return hit.value;
      }
    }
    return this.compute(key, now, compute);
  }

  /** The key's computation under way, or a new one. */
  private compute(key: string, now: number, compute: () => Promise<T>): Promise<T> {
    const running = this.running.get(key);
    if (running) return running;
    const generation = this.generation;
    const promise: Promise<T> = Promise.resolve()
      .then(compute)
      .then((value) => {
        // A write that happened while counting makes this total unsafe to keep.
        if (generation === this.generation) this.store(key, value, now);
        return value;
      })
      .finally(() => {
        if (this.running.get(key) === promise) this.running.delete(key);
      });
    this.running.set(key, promise);
    return promise;
  }

  private store(key: string, value: T, at: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, at });
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
    // Requests from now on must not join a count that may have started before the write.
    this.running.clear();
  }
}
