import { describe, expect, it } from 'vitest';
import { CountCache } from './count-cache.js';

/** A computation the test finishes by hand, counting how often it was started. */
function manual() {
  const pending: Array<{ resolve: (n: number) => void; reject: (error: unknown) => void }> = [];
  let calls = 0;
  return {
    compute: () => {
      calls += 1;
      return new Promise<number>((resolve, reject) => pending.push({ resolve, reject }));
    },
    finish: (n: number) => pending.shift()?.resolve(n),
    fail: (error: unknown) => pending.shift()?.reject(error),
    get calls() {
      return calls;
    },
    get waiting() {
      return pending.length;
    },
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('count cache', () => {
  it('answers from memory within the time to live, and counts again after a write', async () => {
    const cache = new CountCache<number>(1000);
    let calls = 0;
    const compute = async () => ++calls;
    expect(await cache.get('k', 0, compute)).toBe(1);
    expect(await cache.get('k', 999, compute)).toBe(1);
    cache.invalidate();
    expect(await cache.get('k', 999, compute)).toBe(2);
    expect(await cache.get('other', 999, compute)).toBe(3);
  });

  it('single flight: concurrent requests for one key share one computation', async () => {
    const cache = new CountCache<number>(1000);
    const count = manual();
    const answers = Promise.all(Array.from({ length: 50 }, () => cache.get('k', 0, count.compute)));
    await settle();
    expect(count.calls).toBe(1);
    count.finish(42);
    expect(await answers).toEqual(new Array(50).fill(42));
    // Another key is another computation.
    const other = cache.get('other', 0, count.compute);
    await settle();
    expect(count.calls).toBe(2);
    count.finish(7);
    expect(await other).toBe(7);
  });

  it('stale while revalidate: an expired total is answered while one refresh runs in the background', async () => {
    const cache = new CountCache<number>(1000);
    const count = manual();
    const first = cache.get('k', 0, count.compute);
    await settle();
    count.finish(1);
    expect(await first).toBe(1);
    // Expired: answered at once with the old total, one refresh started for all of them.
    expect(await cache.get('k', 1500, count.compute)).toBe(1);
    expect(await cache.get('k', 1600, count.compute)).toBe(1);
    await settle();
    expect(count.calls).toBe(2);
    count.finish(2);
    await settle();
    // The refreshed total (stored as of when its refresh started) is fresh again.
    expect(await cache.get('k', 2400, count.compute)).toBe(2);
    expect(count.calls).toBe(2);
  });

  it('waits for a new total when the old one is too stale', async () => {
    const cache = new CountCache<number>(1000, { maxStaleMs: 5000 });
    let calls = 0;
    const compute = async () => ++calls;
    expect(await cache.get('k', 0, compute)).toBe(1);
    expect(await cache.get('k', 5000, compute)).toBe(2);
  });

  it('keeps the stale total when a background refresh fails, and reports the failure', async () => {
    const failures: unknown[] = [];
    const cache = new CountCache<number>(1000, { onRefreshError: (error) => failures.push(error) });
    const count = manual();
    const first = cache.get('k', 0, count.compute);
    await settle();
    count.finish(1);
    await first;
    expect(await cache.get('k', 1500, count.compute)).toBe(1);
    await settle();
    count.fail(new Error('database gone'));
    await settle();
    expect(failures).toHaveLength(1);
    expect(await cache.get('k', 1600, count.compute)).toBe(1);
    // ...and the next request tries again.
    await settle();
    expect(count.calls).toBe(3);
  });

  it('after a write, neither keeps nor shares a total that was being computed', async () => {
    const cache = new CountCache<number>(1000);
    const count = manual();
    const before = cache.get('k', 0, count.compute);
    await settle();
    cache.invalidate();
    // A request after the write must not join the count that started before it.
    const after = cache.get('k', 1, count.compute);
    await settle();
    expect(count.calls).toBe(2);
    count.finish(7);
    count.finish(8);
    expect(await before).toBe(7);
    expect(await after).toBe(8);
    // The count that started before the write was not kept; the one after it was.
    expect(await cache.get('k', 2, async () => 9)).toBe(8);
  });

  it('forgets the oldest total beyond its size', async () => {
    const cache = new CountCache<number>(1000, { maxEntries: 2 });
    await cache.get('a', 0, async () => 1);
    await cache.get('b', 0, async () => 2);
    await cache.get('c', 0, async () => 3);
    expect(await cache.get('b', 1, async () => 20)).toBe(2);
    expect(await cache.get('c', 1, async () => 30)).toBe(3);
    expect(await cache.get('a', 1, async () => 10)).toBe(10);
  });
});
