import { ADMIN_USER_ID } from '@gantry/shared';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { users } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;

export class UserRepository {
  constructor(private readonly db: Database) {}

  async findById(id: string, db: Database = this.db): Promise<UserRow | undefined> {
    const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  }

  async adminExists(): Promise<boolean> {
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, ADMIN_USER_ID), isNotNull(users.passwordHash)))
      .limit(1);
    return rows.length > 0;
  }

  /** Creates the administrator; false when one already exists (concurrent calls: one wins). */
  async createAdmin(passwordHash: string): Promise<boolean> {
    const rows = await this.db
      .insert(users)
      .values({ id: ADMIN_USER_ID, name: ADMIN_USER_ID, isAdmin: true, passwordHash })
      .onConflictDoNothing()
      .returning({ id: users.id });
    return rows.length > 0;
  }

  async setPassword(id: string, passwordHash: string): Promise<void> {
    await this.db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, id));
  }
}
