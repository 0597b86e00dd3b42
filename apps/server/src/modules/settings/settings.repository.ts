import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { settings } from '../../db/schema.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';

const ROW_ID = 1;

export class SettingsRepository {
  /** `bus`: where a change is announced (in its transaction), so every process's cached copy is dropped. */
  constructor(
    private readonly db: Database,
    private readonly bus?: InvalidationBus,
  ) {}

  async read(): Promise<unknown> {
    const [row] = await this.db.select({ value: settings.value }).from(settings).where(eq(settings.id, ROW_ID));
    return row?.value;
  }

  /**
   * Read-modify-write under a row lock, so that concurrent changes of different fields all land.
   * The row is created first when missing (there is nothing to lock otherwise).
   */
  async modify<T>(change: (current: unknown) => T): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.insert(settings).values({ id: ROW_ID, value: sql`'{}'::jsonb` }).onConflictDoNothing();
      const [row] = await tx
        .select({ value: settings.value })
        .from(settings)
        .where(eq(settings.id, ROW_ID))
        .for('update');
      const value = change(row?.value);
      await tx.update(settings).set({ value, updatedAt: new Date() }).where(eq(settings.id, ROW_ID));
      await this.bus?.publish({ kind: 'settings' }, tx);
      return value;
    });
  }
}
