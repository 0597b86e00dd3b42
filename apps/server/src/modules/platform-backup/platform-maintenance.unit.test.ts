/**
 * A platform restore as two nodes on one bus see it: the other node is in maintenance from the
 * first announcement to the last, pauses its task engine meanwhile, and leaves maintenance by itself
 * when the restoring node goes silent (killed). (Two real processes on PostgreSQL:
 * two-processes.postgres.test.ts.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalInvalidationBus } from '../../lib/invalidation-bus.js';
import { MAINTENANCE_EXPIRY_MS, MAINTENANCE_HEARTBEAT_MS, PlatformMaintenance } from './platform-maintenance.js';

function node(bus: LocalInvalidationBus) {
  const engine: string[] = [];
  const maintenance = new PlatformMaintenance({
    bus,
    now: () => Date.now(),
    tasks: {
      quiesce: async () => void engine.push('quiesce'),
      resume: async () => void engine.push('resume'),
    },
    log: { warn: () => undefined },
  });
  bus.subscribe((change) => maintenance.apply(change));
  return { maintenance, engine };
}

const START = '2026-11-29T01:00:00.000Z';

describe('platform maintenance across nodes', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('holds the other node from the start to the end of a restore, and pauses its tasks meanwhile', async () => {
    const bus = new LocalInvalidationBus();
    const one = node(bus);
    const two = node(bus);
    await one.maintenance.begin(START);
    expect(two.maintenance.otherRestoringSince).toBe(START);
    expect(one.maintenance.otherRestoringSince).toBeUndefined();
    // Heartbeats keep it going past the expiry.
    await vi.advanceTimersByTimeAsync(MAINTENANCE_EXPIRY_MS * 2);
    expect(two.maintenance.otherRestoringSince).toBe(START);
    await one.maintenance.end(START);
    expect(two.maintenance.otherRestoringSince).toBeUndefined();
    await vi.advanceTimersByTimeAsync(0);
    expect(two.engine).toEqual(['quiesce', 'resume']);
    expect(one.engine).toEqual([]);
  });

  it('lets the other node go when the restoring node falls silent (killed mid-restore)', async () => {
    const bus = new LocalInvalidationBus();
    const two = node(bus);
    // One announcement, then nothing: what a node killed with SIGKILL leaves.
    await bus.publish({ kind: 'maintenance', node: 'gone', restoring: true, startTime: START });
    expect(two.maintenance.otherRestoringSince).toBe(START);
    await vi.advanceTimersByTimeAsync(MAINTENANCE_EXPIRY_MS - MAINTENANCE_HEARTBEAT_MS);
    expect(two.maintenance.otherRestoringSince).toBe(START);
    await vi.advanceTimersByTimeAsync(MAINTENANCE_HEARTBEAT_MS + 1);
    expect(two.maintenance.otherRestoringSince).toBeUndefined();
    expect(two.engine).toEqual(['quiesce', 'resume']);
  });
});
