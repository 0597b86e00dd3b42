import { and, eq, gt, gte, inArray, lt, or, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/database.js';
import { loginAttempts } from '../../db/schema.js';

export interface Reservation {
  /** Attempts counted since the last success, this one included. */
  attempts: number;
  frozenUntil: Date | null;
}

/**
 * Counters behind the lockout and the "after a failed attempt" verification code. Reserving an
 * attempt is one atomic statement, so concurrent wrong passwords cannot slip past the count.
 */
export class LoginAttemptRepository {
  constructor(private readonly db: Database) {}

  /**
   * Counts one more attempt unless the key is frozen. An expired freeze starts the count over.
   * Returns the count after this attempt and any freeze still in force.
   */
  async reserve(key: string, now: Date): Promise<Reservation> {
    const at = now.toISOString();
    const [row] = await queryRows<{ attempts: number; frozen_until: string | Date | null }>(
      this.db,
      sql`INSERT INTO login_attempts (key, attempts, frozen_until, updated_at)
          VALUES (${key}, 1, NULL, ${at}::timestamptz)
          ON CONFLICT (key) DO UPDATE SET
            attempts = CASE
              WHEN login_attempts.frozen_until > ${at}::timestamptz THEN login_attempts.attempts
              WHEN login_attempts.frozen_until IS NOT NULL THEN 1
              ELSE login_attempts.attempts + 1 END,
            frozen_until = CASE
              WHEN login_attempts.frozen_until > ${at}::timestamptz THEN login_attempts.frozen_until
              ELSE NULL END,
            updated_at = ${at}::timestamptz
          RETURNING attempts, frozen_until`,
    );
    if (!row) throw new Error('login attempt upsert returned nothing');
    return { attempts: Number(row.attempts), frozenUntil: row.frozen_until ? new Date(row.frozen_until) : null };
  }

  /** Gives back a reserved attempt whose password was never checked. */
  async release(key: string): Promise<void> {
    await this.db
      .update(loginAttempts)
      .set({ attempts: sql`greatest(${loginAttempts.attempts} - 1, 0)` })
      .where(eq(loginAttempts.key, key));
  }

  async freeze(key: string, until: Date): Promise<void> {
    await this.db.update(loginAttempts).set({ frozenUntil: until }).where(eq(loginAttempts.key, key));
  }

  /**
   * Counts a failure without reserving (client addresses). A count whose last failure is older than
   * `since` starts over, so it holds the failures of one stretch of activity, not of all time.
   */
  async recordFailure(key: string, now: Date, since: Date): Promise<void> {
    await this.db
      .insert(loginAttempts)
      .values({ key, attempts: 1, updatedAt: now })
      .onConflictDoUpdate({
        target: loginAttempts.key,
        set: {
          attempts: sql`CASE WHEN ${loginAttempts.updatedAt} > ${since.toISOString()}::timestamptz
                        THEN ${loginAttempts.attempts} + 1 ELSE 1 END`,
          updatedAt: now,
        },
      });
  }

  async clear(key: string): Promise<void> {
    await this.db.delete(loginAttempts).where(eq(loginAttempts.key, key));
  }

  /**
   * Whether any key's count (failed or in-flight attempts) reached its threshold, the last of them
   * after `since`.
   */
  async anyReached(thresholds: Array<{ key: string; count: number }>, since: Date): Promise<boolean> {
    if (thresholds.length === 0) return false;
    const rows = await this.db
      .select({ key: loginAttempts.key })
      .from(loginAttempts)
      .where(
        and(
          inArray(
            loginAttempts.key,
            thresholds.map((t) => t.key),
          ),
          gt(loginAttempts.updatedAt, since),
          or(...thresholds.map((t) => and(eq(loginAttempts.key, t.key), gte(loginAttempts.attempts, t.count)))),
        ),
      )
      .limit(1);
    return rows.length > 0;
  }

  /** Forgets counters untouched since `before` that are not frozen. */
  async purge(before: Date): Promise<void> {
    await this.db
      .delete(loginAttempts)
      .where(
        and(
          lt(loginAttempts.updatedAt, before),
          sql`(${loginAttempts.frozenUntil} IS NULL OR ${loginAttempts.frozenUntil} < ${before.toISOString()}::timestamptz)`,
        ),
      );
  }
}
