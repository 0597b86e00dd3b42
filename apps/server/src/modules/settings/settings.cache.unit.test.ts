import { DEFAULT_SETTINGS, type Settings } from '@gantry/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Invalidation, LocalInvalidationBus } from '../../lib/invalidation-bus.js';
import type { SettingsRepository } from './settings.repository.js';
import { SettingsService } from './settings.service.js';

/**
 * A stored document that counts its reads; `hold` makes the next read wait for `release`, `holdAnswer`
 * makes the next change answer only when released (it is stored at once, as a commit would).
 */
function store(initial: Partial<Settings> = {}) {
  let value: Settings = { ...DEFAULT_SETTINGS, ...initial };
  let reads = 0;
  let held: { release: () => void; promise: Promise<void> } | undefined;
  let answerHeld: Promise<void> | undefined;
  const repository = {
    read: async () => {
      reads++;
      const seen = value;
      if (held) await held.promise;
      return seen;
    },
    modify: async <T>(change: (current: unknown) => T) => {
      const next = change(value);
      value = next as Settings;
      const wait = answerHeld;
      answerHeld = undefined;
      if (wait) await wait;
      return next;
    },
  } as unknown as SettingsRepository;
  return {
    repository,
    reads: () => reads,
    set: (patch: Partial<Settings>) => {
      value = { ...value, ...patch };
    },
    hold: () => {
      let release = () => {};
      const promise = new Promise<void>((resolve) => {
        release = resolve;
      });
      held = { release, promise };
      return () => {
        held = undefined;
        release();
      };
    },
    holdAnswer: () => {
      let release = () => {};
      answerHeld = new Promise<void>((resolve) => {
        release = resolve;
      });
      return release;
    },
  };
}

const log = { warn: () => {} };

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the settings cache', () => {
  it('reads once within its time, again after it', async () => {
    const stored = store({ name: 'One' });
    const settings = new SettingsService(stored.repository, log, new LocalInvalidationBus());
    expect((await settings.get()).name).toBe('One');
    stored.set({ name: 'Two' });
    vi.advanceTimersByTime(4_900);
    expect((await settings.get()).name).toBe('One');
    expect(JSON.parse(await settings.getPublicJson()).name).toBe('One');
    expect(JSON.parse(settings.cachedPublicJson() ?? '{}').name).toBe('One');
    expect(stored.reads()).toBe(1);
    vi.advanceTimersByTime(200);
    expect(settings.cachedPublicJson()).toBeUndefined();
    expect((await settings.get()).name).toBe('Two');
    expect(JSON.parse(await settings.getPublicJson()).name).toBe('Two');
    expect(stored.reads()).toBe(2);
  });

  it('drops its copy when a change is announced, by any process, or when announcements may have been missed', async () => {
    const stored = store({ name: 'One' });
    const bus = new LocalInvalidationBus();
    const lost: Array<(change: Invalidation) => void> = [];
    const subscribe = bus.subscribe.bind(bus);
    bus.subscribe = (listener) => {
      lost.push(listener);
      return subscribe(listener);
    };
    const settings = new SettingsService(stored.repository, log, bus);
    await settings.get();
    stored.set({ name: 'Two' }); // written by another process
    await bus.publish({ kind: 'licence' });
    expect((await settings.get()).name).toBe('One');
    await bus.publish({ kind: 'settings' });
    expect(settings.cachedPublicJson()).toBeUndefined();
    expect((await settings.get()).name).toBe('Two');
    stored.set({ name: 'Three' });
    for (const listener of lost) listener({ kind: 'all' }); // the PostgreSQL bus lost its connection
    expect((await settings.get()).name).toBe('Three');
  });

  it('does not keep a read that an announced change overtook', async () => {
    const stored = store({ name: 'Old' });
    const bus = new LocalInvalidationBus();
    const settings = new SettingsService(stored.repository, log, bus);
    const release = stored.hold();
    const slow = settings.get(); // reads 'Old', then waits
    await Promise.resolve();
    stored.set({ name: 'New' });
    await bus.publish({ kind: 'settings' });
    release();
    expect((await slow).name).toBe('Old');
    expect((await settings.get()).name).toBe('New');
    expect(JSON.parse(await settings.getPublicJson()).name).toBe('New');
  });

  it('reads back what it wrote itself: two saves at once may finish in either order', async () => {
    const stored = store({ name: 'One' });
    const settings = new SettingsService(stored.repository, log, new LocalInvalidationBus());
    await settings.get();
    await settings.patch({ name: 'Mine' });
    expect((await settings.get()).name).toBe('Mine');
    expect(JSON.parse(await settings.getPublicJson()).name).toBe('Mine');
    expect(stored.reads()).toBe(2);

    // The first save commits, then its answer is held back until the second has committed and answered.
    const releaseFirst = stored.holdAnswer();
    const first = settings.patch({ name: 'First' });
    await Promise.resolve();
    await settings.patch({ copyright: 'Second' });
    releaseFirst();
    expect((await first).name).toBe('First');
    expect(await settings.get()).toMatchObject({ name: 'First', copyright: 'Second' });
  });
});
