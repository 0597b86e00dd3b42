import { eq, lte } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { captchas } from '../../db/schema.js';

export class CaptchaRepository {
  constructor(private readonly db: Database) {}

  async create(id: string, answerHash: string, expiresAt: Date): Promise<void> {
    await this.db.insert(captchas).values({ id, answerHash, expiresAt });
  }

  /** Removes the code and returns it: a code can be checked once only. */
  async take(id: string): Promise<{ answerHash: string; expiresAt: Date } | undefined> {
    const [row] = await this.db
      .delete(captchas)
      .where(eq(captchas.id, id))
      .returning({ answerHash: captchas.answerHash, expiresAt: captchas.expiresAt });
    return row;
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.delete(captchas).where(lte(captchas.expiresAt, now));
  }
}
