import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('Semaphore', () => {
  it('runs at most `limit` jobs at once and refuses beyond the queue', async () => {
    const gate = new Semaphore(2, 1);
    let running = 0;
    let peak = 0;
    const releases: Array<() => void> = [];
    const job = () =>
      gate.run(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running--;
        return 'done';
      });
    const first = job();
    const second = job();
    const queued = job();
    const refused = await job();
    expect(refused).toBeUndefined();
    await tick();
    expect(running).toBe(2);
    releases.shift()?.();
    await tick();
    expect(running).toBe(2); // the queued job took the freed place
    while (releases.length) {
      releases.shift()?.();
      await tick();
    }
    expect(await Promise.all([first, second, queued])).toEqual([
      { value: 'done' },
      { value: 'done' },
      { value: 'done' },
    ]);
    expect(peak).toBe(2);
    // Free again: a new job runs at once.
    expect(await gate.run(async () => 1)).toEqual({ value: 1 });
  });

  it('frees its place when a job throws', async () => {
    const gate = new Semaphore(1, 0);
    await expect(gate.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(async () => 2)).toEqual({ value: 2 });
  });
});
