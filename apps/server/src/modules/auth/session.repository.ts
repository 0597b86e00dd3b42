import { and, eq, gt, lte } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { sessions, users } from '../../db/schema.js';
import type { UserRow } from '../users/user.repository.js';

export class SessionRepository {
  constructor(private readonly db: Database) {}

  async create(
    session: { tokenHash: string; userId: string; expiresAt: Date; ip: string },
    db: Database = this.db,
  ): Promise<void> {
    await db.insert(sessions).values(session);
  }

  /** The live session of a token hash and its (enabled) user. */
  async findActive(tokenHash: string, now: Date): Promise<{ user: UserRow; expiresAt: Date } | undefined> {
    const [row] = await this.db
      .select({ user: users, expiresAt: sessions.expiresAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, now), eq(users.status, true)))
      .limit(1);
    return row;
  }

  async delete(tokenHash: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
  }

  async deleteForUser(userId: string): Promise<void> {
    await this.db.delete(sessions).where(eq(sessions.userId, userId));
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.delete(sessions).where(lte(sessions.expiresAt, now));
  }
}
