import { and, eq, lte } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { ssoAccounts, ssoLogins, ssoSettings } from '../../db/schema.js';

const ROW_ID = 1;

export type SsoSettingsRow = typeof ssoSettings.$inferSelect;
export type SsoSettingsValues = Omit<SsoSettingsRow, 'id' | 'updatedAt'>;
export type SsoLoginRow = typeof ssoLogins.$inferSelect;
export type SsoLoginValues = Omit<SsoLoginRow, 'createdAt'>;

/** All SQL of single sign-on: the settings row, sign-ins under way, identities linked to tenants. */
export class SsoRepository {
  constructor(private readonly db: Database) {}

  async settings(db: Database = this.db): Promise<SsoSettingsRow | undefined> {
    const [row] = await db.select().from(ssoSettings).where(eq(ssoSettings.id, ROW_ID));
    return row;
  }

  /** The settings row locked for the rest of `tx` (created with the defaults first when missing). */
  async lockSettings(tx: Database): Promise<SsoSettingsRow> {
    await tx.insert(ssoSettings).values({ id: ROW_ID }).onConflictDoNothing();
    const [row] = await tx.select().from(ssoSettings).where(eq(ssoSettings.id, ROW_ID)).for('update');
    if (!row) throw new Error('the SSO settings row is missing after its insert');
    return row;
  }

  async writeSettings(tx: Database, values: SsoSettingsValues, at: Date): Promise<void> {
    await tx
      .update(ssoSettings)
      .set({ ...values, updatedAt: at })
      .where(eq(ssoSettings.id, ROW_ID));
  }

  async addLogin(values: SsoLoginValues, db: Database = this.db): Promise<void> {
    await db.insert(ssoLogins).values(values);
  }

  /** Deletes and answers a live sign-in of `kind` by its hash: whoever takes it first has it, once. */
  async takeLogin(
    idHash: string,
    kind: SsoLoginRow['kind'],
    now: Date,
    db: Database = this.db,
  ): Promise<SsoLoginRow | undefined> {
    const [row] = await db
      .delete(ssoLogins)
      .where(and(eq(ssoLogins.idHash, idHash), eq(ssoLogins.kind, kind)))
      .returning();
    return row && row.expiresAt > now ? row : undefined;
  }

  async deleteExpiredLogins(now: Date): Promise<void> {
    await this.db.delete(ssoLogins).where(lte(ssoLogins.expiresAt, now));
  }

  async linkedUser(issuer: string, account: string, db: Database = this.db): Promise<string | undefined> {
    const [row] = await db
      .select({ userId: ssoAccounts.userId })
      .from(ssoAccounts)
      .where(and(eq(ssoAccounts.issuer, issuer), eq(ssoAccounts.account, account)));
    return row?.userId;
  }

  async link(tx: Database, issuer: string, account: string, userId: string): Promise<void> {
    await tx.insert(ssoAccounts).values({ issuer, account, userId });
  }
}
