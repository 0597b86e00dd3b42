import { describe, expect, it } from 'vitest';
import { inPool } from './in-pool.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('inPool', () => {
  it('runs every item, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await inPool([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      running++;
      most = Math.max(most, running);
      await tick();
      done.push(item);
      running--;
    });
    expect(done.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('starts nothing after a failure, lets the running ones finish, then throws the first failure', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    const run = inPool([1, 2, 3, 4, 5, 6], 2, async (item) => {
      started.push(item);
      await tick();
      if (item === 2) throw new Error('two failed');
      if (item === 3) throw new Error('three failed');
      finished.push(item);
    });
    await expect(run).rejects.toThrow('two failed');
    expect(started).toEqual([1, 2, 3]);
    expect(finished).toEqual([1]);
  });
});
