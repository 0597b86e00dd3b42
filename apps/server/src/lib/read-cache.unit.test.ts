import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.js';

/** A read whose answer the test gives when it wants, counting how often it was asked. */
function controlledRead<V>() {
  const pending: Array<(value: V | undefined) => void> = [];
  let calls = 0;
  return {
    read: () => {
      calls++;
      return new Promise<V | undefined>((resolve) => pending.push(resolve));
    },
    answer: (value: V | undefined) => pending.shift()?.(value),
    calls: () => calls,
  };
}

describe('ReadCache', () => {
  it('answers from memory until the time to live has passed, then reads again', async () => {
    let now = 1_000;
    const cache = new ReadCache<string>(5_000, 10, () => now);
    let reads = 0;
    const read = async () => `v${++reads}`;
    expect(await cache.get('p1', read)).toBe('v1');
    now += 4_999;
    expect(await cache.get('p1', read)).toBe('v1');
    now += 1;
    expect(await cache.get('p1', read)).toBe('v2');
    expect(reads).toBe(2);
  });

  it('shares one read between concurrent misses of a key', async () => {
    const cache = new ReadCache<string>(5_000, 10);
    const source = controlledRead<string>();
    const answers = Promise.all([cache.get('p1', source.read), cache.get('p1', source.read)]);
    source.answer('owner');
    expect(await answers).toEqual(['owner', 'owner']);
    expect(source.calls()).toBe(1);
  });

  it('keeps nothing for a read that finds nothing', async () => {
    const cache = new ReadCache<string>(5_000, 10);
    let reads = 0;
    const read = async () => {
      reads++;
      return reads === 1 ? undefined : 'made since';
    };
    expect(await cache.get('p1', read)).toBeUndefined();
    expect(await cache.get('p1', read)).toBe('made since');
  });

  it('does not keep what a read begun before a forget answers, and later calls do not wait on it', async () => {
    const cache = new ReadCache<string>(5_000, 10);
    const source = controlledRead<string>();
    const old = cache.get('p1', source.read);
    cache.forget('p1');
    const fresh = cache.get('p1', source.read);
    expect(source.calls()).toBe(2);
    source.answer('before the change');
    source.answer('after the change');
    expect(await old).toBe('before the change');
    expect(await fresh).toBe('after the change');
    // The read begun after the forget is kept: the next call answers from memory.
    expect(await cache.get('p1', source.read)).toBe('after the change');
    expect(source.calls()).toBe(2);
  });

  it('forgets one key, the keys of a prefix, or everything', async () => {
    const cache = new ReadCache<string>(5_000, 10);
    let reads = 0;
    const read = async () => `v${++reads}`;
    for (const key of ['p1/a', 'p1/b', 'p10/a', 'p2/a']) await cache.get(key, read);
    cache.forget({ prefix: 'p1/' });
    expect(await cache.get('p10/a', read)).toBe('v3');
    expect(await cache.get('p2/a', read)).toBe('v4');
    expect(await cache.get('p1/a', read)).toBe('v5');
    cache.forget('p2/a');
    expect(await cache.get('p10/a', read)).toBe('v3');
    expect(await cache.get('p2/a', read)).toBe('v6');
    cache.forget();
    expect(await cache.get('p10/a', read)).toBe('v7');
  });

  it('holds at most its maximum of entries, the oldest going first', async () => {
    const cache = new ReadCache<string>(5_000, 2);
    let reads = 0;
    const read = async () => `v${++reads}`;
    await cache.get('a', read);
    await cache.get('b', read);
    await cache.get('c', read);
    expect(await cache.get('b', read)).toBe('v2');
    expect(await cache.get('c', read)).toBe('v3');
    expect(await cache.get('a', read)).toBe('v4');
  });

  it('with a size bound, keeps at most that much, the oldest going first, and never keeps a value too large', async () => {
    const cache = new ReadCache<string>(5_000, 100, Date.now, { sizeOf: (value) => value.length, maxSize: 80 });
    const reads = new Map<string, number>();
    const read = (value: string) => async () => {
      reads.set(value, (reads.get(value) ?? 0) + 1);
      return value;
    };
    const [a, b, c] = ['a'.repeat(10), 'b'.repeat(10), 'c'.repeat(10)];
    for (const value of [a, b, ...Array.from({ length: 6 }, (_, i) => `${i}`.repeat(10))])
      await cache.get(value, read(value));
    // 8 values of 10: full. One more pushes the oldest (a) out.
    await cache.get(c, read(c));
    await cache.get(a, read(a));
    await cache.get(c, read(c));
    expect([reads.get(a), reads.get(c)]).toEqual([2, 1]);
    // b went when a came back (the oldest then).
    await cache.get(b, read(b));
    expect(reads.get(b)).toBe(2);
    // More than an eighth of the bound (11 > 10): answered, never kept.
    const large = 'L'.repeat(11);
    expect(await cache.get(large, read(large))).toBe(large);
    await cache.get(large, read(large));
    expect(reads.get(large)).toBe(2);
  });
  it('answers a hit past half its time to live at once and reads it again meanwhile, once, keeping the new answer', async () => {
    let now = 1_000;
    const cache = new ReadCache<string>(5_000, 10, () => now);
    const source = controlledRead<string>();
    const first = cache.get('p1', source.read);
    source.answer('v1');
    expect(await first).toBe('v1');
    now += 2_499;
    expect(await cache.get('p1', source.read)).toBe('v1');
    expect(source.calls()).toBe(1);
    now += 1;
    // Answered from memory while the read it started is still unanswered; a second hit adds none.
    expect(await cache.get('p1', source.read)).toBe('v1');
    expect(await cache.get('p1', source.read)).toBe('v1');
    expect(source.calls()).toBe(2);
    source.answer('v2');
    await Promise.resolve();
    await Promise.resolve();
    // Kept from when that read began: fresh for another half of the time to live.
    now += 2_499;
    expect(await cache.get('p1', source.read)).toBe('v2');
    expect(source.calls()).toBe(2);
  });

  it('drops an entry whose refresh finds nothing, and keeps nothing a refresh begun before a forget answers', async () => {
    let now = 1_000;
    const cache = new ReadCache<string>(5_000, 10, () => now);
    const source = controlledRead<string>();
    const settle = async () => {
      for (let i = 0; i < 3; i++) await Promise.resolve();
    };
    const first = cache.get('gone', source.read);
    source.answer('v1');
    await first;
    now += 3_000;
    expect(await cache.get('gone', source.read)).toBe('v1');
    source.answer(undefined);
    await settle();
    const missed = cache.get('gone', source.read);
    expect(source.calls()).toBe(3);
    source.answer('made since');
    expect(await missed).toBe('made since');

    now += 3_000;
    expect(await cache.get('gone', source.read)).toBe('made since');
    cache.forget('gone');
    source.answer('read before the forget');
    await settle();
    const afresh = cache.get('gone', source.read);
    expect(source.calls()).toBe(5);
    source.answer('after');
    expect(await afresh).toBe('after');
  });
});
