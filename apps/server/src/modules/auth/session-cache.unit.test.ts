import { describe, expect, it } from 'vitest';
import type { UserRow } from '../users/user.repository.js';
import { SessionCache } from './session-cache.js';

const user = (id: string) => ({ id }) as UserRow;
const session = (id: string, expiresAt: number) => ({ user: user(id), expiresAt: new Date(expiresAt) });

describe('SessionCache', () => {
  it('forgets entries after its TTL and at the session expiry', () => {
    const cache = new SessionCache(1000, 10);
    cache.set('a', session('u1', 10_000), 0, cache.generation);
    cache.set('b', session('u1', 500), 0, cache.generation);
    expect(cache.get('a', 999)?.user.id).toBe('u1');
    expect(cache.get('a', 1001)).toBeUndefined();
    expect(cache.get('b', 500)).toBeUndefined();
  });

  it('forgets one token, or every token of a user', () => {
    const cache = new SessionCache(1000, 10);
    cache.set('a', session('u1', 9999), 0, cache.generation);
    cache.set('b', session('u1', 9999), 0, cache.generation);
    cache.set('c', session('u2', 9999), 0, cache.generation);
    cache.forget('c');
    expect(cache.get('c', 1)).toBeUndefined();
    cache.forgetUser('u1');
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('b', 1)).toBeUndefined();
  });

  it('does not cache a lookup that a revocation overtook', () => {
    const cache = new SessionCache(1000, 10);
    const before = cache.generation;
    cache.forgetUser('u1'); // e.g. a password change while the lookup was in the database
    cache.set('a', session('u1', 9999), 0, before);
    expect(cache.get('a', 1)).toBeUndefined();
  });

  it('asks once for a session past half its time to be read again, keeps the new answer from when it was asked, and drops a session found gone', () => {
    const cache = new SessionCache(1000, 10);
    cache.set('a', session('u1', 10_000), 0, cache.generation);
    expect(cache.refreshDue('a', 499)).toBe(false);
    expect(cache.refreshDue('a', 500)).toBe(true);
    expect(cache.refreshDue('a', 600)).toBe(false);
    const generation = cache.generation;
    cache.set('a', session('u1', 10_000), 500, generation);
    cache.refreshed('a');
    // Trusted from when the second lookup began: past the first's time to live.
    expect(cache.get('a', 1400)?.user.id).toBe('u1');
    expect(cache.refreshDue('a', 1000)).toBe(true);
    cache.set('a', undefined, 1000, cache.generation);
    cache.refreshed('a');
    expect(cache.get('a', 1001)).toBeUndefined();
    expect(cache.refreshDue('a', 1001)).toBe(false);
  });

  it('stays within its size, dropping the oldest', () => {
    const cache = new SessionCache(1000, 2);
    cache.set('a', session('u', 9999), 0, cache.generation);
    cache.set('b', session('u', 9999), 0, cache.generation);
    cache.set('c', session('u', 9999), 0, cache.generation);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toBeDefined();
  });
});

describe('SessionCache on the invalidation bus', () => {
  it('drops a token, a user, or everything, as announced', () => {
    const cache = new SessionCache(1000, 10);
    for (const [token, userId] of [
      ['a', 'u1'],
      ['b', 'u1'],
      ['c', 'u2'],
      ['d', 'u3'],
    ] as const) {
      cache.set(token, session(userId, 9999), 0, cache.generation);
    }
    cache.apply({ kind: 'session', tokenHash: 'c' });
    expect(cache.get('c', 1)).toBeUndefined();
    cache.apply({ kind: 'licence' });
    cache.apply({ kind: 'settings' });
    expect(cache.get('a', 1)).toBeDefined();
    cache.apply({ kind: 'user', userId: 'u1' });
    expect([cache.get('a', 1), cache.get('b', 1)]).toEqual([undefined, undefined]);
    expect(cache.get('d', 1)).toBeDefined();
    const before = cache.generation;
    cache.apply({ kind: 'all' });
    expect(cache.get('d', 1)).toBeUndefined();
    // A lookup that started before the connection loss is not kept either.
    cache.set('e', session('u4', 9999), 0, before);
    expect(cache.get('e', 1)).toBeUndefined();
  });
});
