import type { Invalidation } from '../../lib/invalidation-bus.js';
import type { UserRow } from '../users/user.repository.js';

export interface CachedSession {
  user: UserRow;
  expiresAt: Date;
}

/**
 * Recently seen sessions, so that every call of a signed-in user does not cost a query. Kept right
 * across processes by the invalidation bus (logout, password change, a disabled, edited or deleted
 * user, ended sessions: `apply`), and trusted for at most `ttlMs` whatever happens, so that a
 * missed message costs at most that. A session in steady use is read again in the background once
 * past half that time (`refreshDue`), so its calls never wait for the database.
 */
export class SessionCache {
  private readonly entries = new Map<string, CachedSession & { at: number }>();
  /**
   * Bumped by every revocation. A lookup remembers it before asking the database and may cache
   * its answer only if no revocation happened meanwhile (else it could cache a session just ended).
   */
  generation = 0;
  /** Tokens whose session is being read again in the background. */
  private readonly refreshing = new Set<string>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(tokenHash: string, now: number): CachedSession | undefined {
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (now - entry.at > this.ttlMs || entry.expiresAt.getTime() <= now) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return entry;
  }

  /** Keeps what a lookup begun at `now` found, or drops the token when it found nothing. */
  set(tokenHash: string, session: CachedSession | undefined, now: number, generation: number): void {
    if (generation !== this.generation) return;
    if (!session) {
      this.entries.delete(tokenHash);
      return;
    }
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(tokenHash, { ...session, at: now });
  }

  /** Whether the token's session, past half its time, should be read again now: once until `refreshed`. */
  refreshDue(tokenHash: string, now: number): boolean {
    const entry = this.entries.get(tokenHash);
    if (!entry || now - entry.at < this.ttlMs / 2 || this.refreshing.has(tokenHash)) return false;
    this.refreshing.add(tokenHash);
    return true;
  }

  refreshed(tokenHash: string): void {
    this.refreshing.delete(tokenHash);
  }

  forget(tokenHash: string): void {
    this.generation++;
    this.entries.delete(tokenHash);
  }

  forgetUser(userId: string): void {
    this.generation++;
    for (const [key, entry] of this.entries) if (entry.user.id === userId) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  /** A change announced on the invalidation bus (by this process or another). */
  apply(change: Invalidation): void {
    if (change.kind === 'session') this.forget(change.tokenHash);
    else if (change.kind === 'user') this.forgetUser(change.userId);
    else if (change.kind === 'all') this.clear();
  }
}
