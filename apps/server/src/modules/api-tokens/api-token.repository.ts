import { and, count, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { apiTokens, users } from '../../db/schema.js';
import type { UserRow } from '../users/user.repository.js';

export type ApiTokenRow = typeof apiTokens.$inferSelect;

/** API tokens (issue 34 §3): only their SHA-256 is stored; revoked ones are deleted. */
export class ApiTokenRepository {
  constructor(private readonly db: Database) {}

  async create(row: typeof apiTokens.$inferInsert, db: Database = this.db): Promise<ApiTokenRow> {
    const [created] = await db.insert(apiTokens).values(row).returning();
    if (!created) throw new Error('token insert returned nothing');
    return created;
  }

  async countOf(userId: string, db: Database = this.db): Promise<number> {
    const [row] = await db.select({ n: count() }).from(apiTokens).where(eq(apiTokens.userId, userId));
    return Number(row?.n ?? 0);
  }

  /** One account's tokens, or everyone's (no `userId`), newest first. */
  list(userId?: string): Promise<ApiTokenRow[]> {
    const query = this.db.select().from(apiTokens);
    return (userId ? query.where(eq(apiTokens.userId, userId)) : query).orderBy(desc(apiTokens.createdAt));
  }

  /** Deletes a token (of `userId` only, when given); the deleted row, if any. */
  async delete(id: string, userId: string | undefined, db: Database = this.db): Promise<ApiTokenRow | undefined> {
    const [row] = await db
      .delete(apiTokens)
      .where(userId ? and(eq(apiTokens.id, id), eq(apiTokens.userId, userId)) : eq(apiTokens.id, id))
      .returning();
    return row;
  }

  /** The unexpired token of a hash and its enabled account. */
  async findActive(tokenHash: string, now: Date): Promise<{ token: ApiTokenRow; user: UserRow } | undefined> {
    const [row] = await this.db
      .select({ token: apiTokens, user: users })
      .from(apiTokens)
      .innerJoin(users, eq(users.id, apiTokens.userId))
      .where(and(eq(apiTokens.tokenHash, tokenHash), gt(apiTokens.expiresAt, now), eq(users.status, true)))
      .limit(1);
    return row;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.db.update(apiTokens).set({ lastUsedAt: at }).where(eq(apiTokens.id, id));
  }

  /** Ends the tokens of `userId` made to end with its password. */
  async deleteOnPasswordChange(userId: string): Promise<void> {
    await this.db
      .delete(apiTokens)
      .where(and(eq(apiTokens.userId, userId), eq(apiTokens.revokeOnPasswordChange, true)));
  }

  /** Forgets tokens expired before `before` (listed as expired until then). */
  async deleteExpired(before: Date): Promise<void> {
    await this.db.delete(apiTokens).where(lt(apiTokens.expiresAt, sql`${before.toISOString()}::timestamptz`));
  }
}
