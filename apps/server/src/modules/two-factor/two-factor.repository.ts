import { and, count, eq, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { pendingSignIns, totpRecoveryCodes, users, userTotp } from '../../db/schema.js';
import type { UserRow } from '../users/user.repository.js';

export type TotpRow = typeof userTotp.$inferSelect;

/** The rows of two-factor sign-in: each account's secret, its recovery codes, pending sign-ins. */
export class TwoFactorRepository {
  constructor(private readonly db: Database) {}

  async find(userId: string, db: Database = this.db): Promise<TotpRow | undefined> {
    const [row] = await db.select().from(userTotp).where(eq(userTotp.userId, userId)).limit(1);
    return row;
  }

  /** Whether the account has it on (a confirmed secret). */
  async isOn(userId: string): Promise<boolean> {
    const row = await this.find(userId);
    return Boolean(row?.confirmedAt);
  }

  /** A new unconfirmed secret; false when the account already has it on. */
  async startSetup(userId: string, secretSealed: string): Promise<boolean> {
    const rows = await this.db
      .insert(userTotp)
      .values({ userId, secretSealed })
      .onConflictDoUpdate({
        target: userTotp.userId,
        set: { secretSealed, lastStep: null, createdAt: sql`now()` },
        setWhere: isNull(userTotp.confirmedAt),
      })
      .returning({ userId: userTotp.userId });
    return rows.length > 0;
  }

  /**
   * Records `step` as the last accepted one, unless a code of this or a later step was accepted
   * already (concurrent calls with one code: one wins). One statement, so no replay slips between.
   */
  async acceptStep(userId: string, step: number, db: Database = this.db): Promise<boolean> {
    const rows = await db
      .update(userTotp)
      .set({ lastStep: step })
      .where(and(eq(userTotp.userId, userId), or(isNull(userTotp.lastStep), lt(userTotp.lastStep, step))))
      .returning({ userId: userTotp.userId });
    return rows.length > 0;
  }

  async confirm(tx: Database, userId: string, at: Date, codeHashes: string[]): Promise<void> {
    await tx.update(userTotp).set({ confirmedAt: at }).where(eq(userTotp.userId, userId));
    await tx.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, userId));
    await tx.insert(totpRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
  }

  async remove(tx: Database, userId: string): Promise<boolean> {
    await tx.delete(totpRecoveryCodes).where(eq(totpRecoveryCodes.userId, userId));
    const rows = await tx
      .delete(userTotp)
      .where(and(eq(userTotp.userId, userId), isNotNull(userTotp.confirmedAt)))
      .returning({ userId: userTotp.userId });
    return rows.length > 0;
  }

  /** Spends a recovery code: true only for the one call that found it unused. */
  async useRecoveryCode(tx: Database, userId: string, codeHash: string, at: Date): Promise<boolean> {
    const rows = await tx
      .update(totpRecoveryCodes)
      .set({ usedAt: at })
      .where(
        and(
          eq(totpRecoveryCodes.userId, userId),
          eq(totpRecoveryCodes.codeHash, codeHash),
          isNull(totpRecoveryCodes.usedAt),
        ),
      )
      .returning({ userId: totpRecoveryCodes.userId });
    return rows.length > 0;
  }

  async recoveryCodesLeft(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(totpRecoveryCodes)
      .where(and(eq(totpRecoveryCodes.userId, userId), isNull(totpRecoveryCodes.usedAt)));
    return Number(row?.n ?? 0);
  }

  async createPending(pending: { tokenHash: string; userId: string; expiresAt: Date; ip: string }): Promise<void> {
    await this.db.insert(pendingSignIns).values(pending);
  }

  /** A live pending sign-in and its (enabled) account. */
  async findPending(tokenHash: string, now: Date): Promise<{ user: UserRow; tries: number } | undefined> {
    const [row] = await this.db
      .select({ user: users, tries: pendingSignIns.tries })
      .from(pendingSignIns)
      .innerJoin(users, eq(users.id, pendingSignIns.userId))
      .where(
        and(
          eq(pendingSignIns.tokenHash, tokenHash),
          sql`${pendingSignIns.expiresAt} > ${now.toISOString()}::timestamptz`,
        ),
      )
      .limit(1);
    return row;
  }

  /** Counts a wrong code; answers the tries so far. */
  async countTry(tokenHash: string): Promise<number> {
    const [row] = await this.db
      .update(pendingSignIns)
      .set({ tries: sql`${pendingSignIns.tries} + 1` })
      .where(eq(pendingSignIns.tokenHash, tokenHash))
      .returning({ tries: pendingSignIns.tries });
    return row?.tries ?? Number.POSITIVE_INFINITY;
  }

  /** Ends a pending sign-in; true for the one call that ended it (single use). */
  async endPending(tokenHash: string, db: Database = this.db): Promise<boolean> {
    const rows = await db
      .delete(pendingSignIns)
      .where(eq(pendingSignIns.tokenHash, tokenHash))
      .returning({ tokenHash: pendingSignIns.tokenHash });
    return rows.length > 0;
  }

  async deleteExpiredPending(now: Date): Promise<void> {
    await this.db.delete(pendingSignIns).where(lte(pendingSignIns.expiresAt, now));
  }
}
