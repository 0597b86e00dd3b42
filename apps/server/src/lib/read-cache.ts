/**
 * Values read on most calls and changed rarely (a project's owner, a table's published definition),
 * kept per key for at most `ttlMs`.
 * - Writers forget their keys once their change has committed: in this process directly, in the
 *   others through the invalidation bus. The expiry bounds what a missed message can cost.
 * - A read that began before a forget does not keep what it read (it may be the old value), and
 *   calls after the forget do not wait on it.
 * - Concurrent misses of one key share one read. Nothing is kept for a read that finds nothing.
 * - A hit past half its time to live is answered and read again in the background (once at a
 *   time), so a key in steady use is never waited for: a request then sends one statement fewer,
 *   and on the embedded engine each of its statements may wait behind another tenant's.
 * - Memory is bounded by a number of entries and, with `sizeOf`, by their total size: the oldest
 *   go first, and a value larger than an eighth of the total is answered but not kept.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, { value: V; at: number; size: number }>();
  private size = 0;
  private readonly reading = new Map<string, Promise<V | undefined>>();
  /** Bumped by every forget: a read may keep its answer only if none happened while it ran. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
    private readonly bound?: { sizeOf: (value: V) => number; maxSize: number },
  ) {}

  get(key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const now = this.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) {
      if (now - hit.at >= this.ttlMs / 2 && !this.reading.has(key)) {
        // A failed refresh leaves the entry to expire; the next miss reads and answers the failure.
        this.load(key, read, now).catch(() => undefined);
      }
      return Promise.resolve(hit.value);
    }
    return this.reading.get(key) ?? this.load(key, read, now);
  }

  private load(key: string, read: () => Promise<V | undefined>, now: number): Promise<V | undefined> {
    const generation = this.generation;
    const promise = read()
      .then((value) => {
        if (generation !== this.generation) return value;
        if (value === undefined) this.remove(key);
        else this.store(key, value, now);
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
      this.size = 0;
      return;
    }
    const matches = (key: string) => (typeof which === 'string' ? key === which : key.startsWith(which.prefix));
    for (const key of this.reading.keys()) if (matches(key)) this.reading.delete(key);
    for (const key of this.entries.keys()) if (matches(key)) this.remove(key);
  }

  private store(key: string, value: V, now: number): void {
    this.remove(key);
    const size = this.bound ? this.bound.sizeOf(value) : 0;
    if (this.bound && size > this.bound.maxSize / 8) return;
    while (
      this.entries.size > 0 &&
      (this.entries.size >= this.maxEntries || (this.bound && this.size + size > this.bound.maxSize))
    ) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.remove(oldest);
    }
    this.entries.set(key, { value, at: now, size });
    this.size += size;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.size -= entry.size;
  }
}
