import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { ftpSettings } from '../../db/schema.js';

const ROW_ID = 1;

export type FtpSettingsRow = typeof ftpSettings.$inferSelect;
export type FtpSettingsValues = Omit<FtpSettingsRow, 'id' | 'updatedAt'>;

/** The one row of FTP settings (all SQL of the FTP module). */
export class FtpSettingsRepository {
  constructor(private readonly db: Database) {}

  async read(db: Database = this.db): Promise<FtpSettingsRow | undefined> {
    const [row] = await db.select().from(ftpSettings).where(eq(ftpSettings.id, ROW_ID));
    return row;
  }

  /** The row locked for the rest of `tx` (created with the defaults first when missing). */
  async lock(tx: Database): Promise<FtpSettingsRow> {
    await tx.insert(ftpSettings).values({ id: ROW_ID }).onConflictDoNothing();
    const [row] = await tx.select().from(ftpSettings).where(eq(ftpSettings.id, ROW_ID)).for('update');
    if (!row) throw new Error('the FTP settings row is missing after its insert');
    return row;
  }

  async write(tx: Database, values: FtpSettingsValues, at: Date): Promise<void> {
    await tx
      .update(ftpSettings)
      .set({ ...values, updatedAt: at })
      .where(eq(ftpSettings.id, ROW_ID));
  }
}
