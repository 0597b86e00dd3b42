/**
 * Values read on most calls and changed rarely (a project's owner, a table's published definition),
 * kept per key for at most `ttlMs`.
 * - Writers forget their keys once their change has committed: in this process directly, in the
 *   others through the invalidation bus. The expiry bounds what a missed message can cost.
 * - A read that began before a forget does not keep what it read (it may be the old value), and
 *   calls after the forget do not wait on it.
 * - Concurrent misses of one key share one read. Nothing is kept for a read that finds nothing.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, { value: V; at: number }>();
  private readonly reading = new Map<string, Promise<V | undefined>>();
  /** Bumped by every forget: a read may keep its answer only if none happened while it ran. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return Promise.resolve(hit.value);
    const running = this.reading.get(key);
    if (running) return running;
    const generation = this.generation;
    const promise = read()
      .then((value) => {
        if (value !== undefined && generation === this.generation) this.store(key, value, now);
        return value;
      })
      .finally(() => {
        if (this.reading.get(key) === promise) this.reading.delete(key);
      });
    this.reading.set(key, promise);
    return promise;
  }

  /** Forgets one key, the keys starting with `prefix` (`{ prefix }`), or everything (no argument). */
  forget(which?: string | { prefix: string }): void {
    this.generation++;
    if (which === undefined) {
      this.entries.clear();
      this.reading.clear();
      return;
    }
    const matches = (key: string) => (typeof which === 'string' ? key === which : key.startsWith(which.prefix));
    for (const map of [this.entries, this.reading]) for (const key of map.keys()) if (matches(key)) map.delete(key);
  }

  private store(key: string, value: V, now: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, at: now });
  }
}
