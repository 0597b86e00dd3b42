import { type Grant, LICENCE_FORMAT, type LicenceDocument, PLATFORM_PRODUCT } from '@gantry/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../db/database.js';
import { type Invalidation, LocalInvalidationBus } from '../../lib/invalidation-bus.js';
import { TEST_MACHINE, TEST_MACHINE_CODE } from '../../test/test-app.js';
import type { AuditService } from '../audit/audit.service.js';
import type { UserRow } from '../users/user.repository.js';
import type { LicenceRepository, PlatformRecord } from './licence.repository.js';
import type { LicenceHistoryRepository } from './licence-history.repository.js';
import { signLicence } from './licence-signature.js';
import { LICENCE_CACHE_MS, PlatformLicenceService } from './platform-licence.service.js';
import { developmentPrivateKey, trustedKeys } from './trusted-keys.js';

const NOW = new Date(2030, 0, 15, 12, 0, 0);

function record(features: string[]): PlatformRecord {
  const document: LicenceDocument = {
    format: LICENCE_FORMAT,
    id: `L-${features.join('-')}`,
    product: PLATFORM_PRODUCT,
    machineCode: TEST_MACHINE_CODE,
    issuedAt: '2030-01-01T00:00:00.000Z',
    grant: {
      validityPeriod: 365,
      startTime: '2030-01-01',
      userCount: 100,
      flow: { tableCount: 50 },
      dataGathering: { point: 1000 },
      features,
    } as Grant,
  };
  const text = signLicence(document, developmentPrivateKey());
  return { grant: document.grant, text, installedAt: NOW };
}

/** The licence row as another process may change it; counts reads outside transactions. */
function installed(initial: PlatformRecord | undefined) {
  let current = initial;
  let reads = 0;
  const repo = {
    platform: async (db?: Database) => {
      if (!db) reads++;
      return current;
    },
  } as unknown as LicenceRepository;
  return {
    repo,
    reads: () => reads,
    replace: (next: PlatformRecord | undefined) => {
      current = next;
    },
  };
}

function service(repo: LicenceRepository, bus?: LocalInvalidationBus, clock = () => NOW) {
  return new PlatformLicenceService({
    db: {} as Database,
    repo,
    history: {} as LicenceHistoryRepository,
    audit: {} as AuditService,
    clock,
    trusted: trustedKeys([], false),
    production: false,
    machine: async () => TEST_MACHINE,
    ...(bus ? { bus } : {}),
  });
}

const admin = { id: 'admin', isAdmin: true, grant: null } as unknown as UserRow;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the platform licence cache', () => {
  it('reads the licence once for many calls, and again after its time', async () => {
    const row = installed(record(['gis']));
    const platform = service(row.repo, new LocalInvalidationBus());
    const calls = await Promise.all(Array.from({ length: 20 }, () => platform.holding(admin)));
    expect(calls.every((held) => held.features.join() === 'gis')).toBe(true);
    expect(row.reads()).toBe(1);
    row.replace(record(['gis', 'DST']));
    vi.advanceTimersByTime(LICENCE_CACHE_MS - 100);
    expect((await platform.holding(admin)).features).toEqual(['gis']);
    vi.advanceTimersByTime(200);
    expect((await platform.holding(admin)).features).toEqual(['DST', 'gis']);
    expect(row.reads()).toBe(2);
  });

  it('reads again as soon as a change is announced, or when announcements may have been missed', async () => {
    const row = installed(undefined);
    const bus = new LocalInvalidationBus();
    const heard: Array<(change: Invalidation) => void> = [];
    const subscribe = bus.subscribe.bind(bus);
    bus.subscribe = (listener) => {
      heard.push(listener);
      return subscribe(listener);
    };
    const platform = service(row.repo, bus);
    expect((await platform.status()).state).toBe('missing');
    row.replace(record(['gis'])); // installed by another process
    await bus.publish({ kind: 'settings' });
    expect((await platform.status()).state).toBe('missing');
    await bus.publish({ kind: 'licence' });
    expect((await platform.status()).state).toBe('valid');
    row.replace(record(['DST']));
    for (const listener of heard) listener({ kind: 'all' });
    expect((await platform.holding(admin)).features).toEqual(['DST']);
  });

  it('reads inside a transaction every time, and caches nothing without a bus', async () => {
    const row = installed(record(['gis']));
    const cached = service(row.repo, new LocalInvalidationBus());
    await cached.status({} as Database);
    await cached.status({} as Database);
    expect(row.reads()).toBe(0);
    const uncached = service(row.repo);
    await uncached.status();
    await uncached.status();
    expect(row.reads()).toBe(2);
  });

  it('does not keep a failed read', async () => {
    let fail = true;
    const repo = {
      platform: async () => {
        if (fail) throw new Error('connection reset');
        return record(['gis']);
      },
    } as unknown as LicenceRepository;
    const platform = service(repo, new LocalInvalidationBus());
    await expect(platform.status()).rejects.toThrow('connection reset');
    fail = false;
    expect((await platform.status()).state).toBe('valid');
  });

  it('answers holding again only when the licence, the user row or the day changes', async () => {
    const row = installed(record(['gis']));
    const bus = new LocalInvalidationBus();
    let now = NOW;
    const platform = service(row.repo, bus, () => now);
    const first = await platform.holding(admin);
    expect(await platform.holding(admin)).toBe(first);
    const tenant = { id: 'acme', isAdmin: false, grant: record(['gis']).grant } as unknown as UserRow;
    expect((await platform.holding(tenant)).features).toEqual(['gis']);
    row.replace(record(['gis', 'DST']));
    await bus.publish({ kind: 'licence' });
    const second = await platform.holding(admin);
    expect(second).not.toBe(first);
    expect(second.features).toEqual(['DST', 'gis']);
    expect(second.grant?.remainingTime).toBe(351);
    now = new Date(NOW.getTime() + 86_400_000);
    expect((await platform.holding(admin)).grant?.remainingTime).toBe(350);
    now = new Date(NOW.getTime() + 400 * 86_400_000);
    expect(await platform.holding(admin)).toMatchObject({ features: [] });
    expect(await platform.holding(tenant)).toMatchObject({ features: [] });
  });
});
