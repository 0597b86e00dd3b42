/**
 * Totals of list queries, kept a few seconds: the console asks for the `count` header with every
 * page, and counting 150,000 rows costs far more than the page itself. Any write to the table
 * forgets everything this process knows; another process's writes show after at most `ttlMs`.
 */
export class CountCache {
  private readonly entries = new Map<string, { count: number; at: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 500,
  ) {}

  async get(key: string, now: number, compute: () => Promise<number>): Promise<number> {
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.count;
    const generation = this.generation;
    const count = await compute();
    // A write that happened while counting makes this total unsafe to keep.
    if (generation === this.generation) {
      if (this.entries.size >= this.maxEntries) this.entries.clear();
      this.entries.set(key, { count, at: now });
    }
    return count;
  }

  invalidate(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
