import { describe, expect, it } from 'vitest';
import { CountCache } from './count-cache.js';

describe('count cache', () => {
  it('answers from memory within the time to live, asks again after it or after a write', async () => {
    const cache = new CountCache(1000);
    let calls = 0;
    const compute = async () => ++calls;
    expect(await cache.get('k', 0, compute)).toBe(1);
    expect(await cache.get('k', 999, compute)).toBe(1);
    expect(await cache.get('k', 1000, compute)).toBe(2);
    cache.invalidate();
    expect(await cache.get('k', 1001, compute)).toBe(3);
    expect(await cache.get('other', 1001, compute)).toBe(4);
  });

  it('does not keep a total computed while a write happened', async () => {
    const cache = new CountCache(1000);
    let release: (n: number) => void = () => {};
    const slow = cache.get('k', 0, () => new Promise<number>((resolve) => (release = resolve)));
    cache.invalidate();
    release(7);
    expect(await slow).toBe(7);
    expect(await cache.get('k', 1, async () => 8)).toBe(8);
  });
});
