import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { settings } from '../../db/schema.js';

const ROW_ID = 1;

export class SettingsRepository {
  constructor(private readonly db: Database) {}

  async read(): Promise<unknown> {
    const [row] = await this.db.select({ value: settings.value }).from(settings).where(eq(settings.id, ROW_ID));
    return row?.value;
  }

  async write(value: unknown): Promise<void> {
    const now = new Date();
    await this.db
      .insert(settings)
      .values({ id: ROW_ID, value, updatedAt: now })
      .onConflictDoUpdate({ target: settings.id, set: { value, updatedAt: now } });
  }
}
