import { count, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { sessions, tasks, users } from '../../db/schema.js';
import { DashboardRepository } from '../dashboard/dashboard.repository.js';
import type { ScrapeCounts } from './metrics.js';

/**
 * The counts a scrape reads: one cheap statement each, run side by side. Tenants and projects come
 * from the dashboard's counts (projects from the trigger-maintained `project_counts`).
 */
export class MetricsRepository {
  private readonly dashboard: DashboardRepository;

  constructor(private readonly db: Database) {
    this.dashboard = new DashboardRepository(db);
  }

  async counts(now: Date): Promise<ScrapeCounts> {
    const [live, tenants, projects, ongoing] = await Promise.all([
      this.db.select({ n: count() }).from(sessions).where(gt(sessions.expiresAt, now)),
      this.dashboard.statusCounts(users, eq(users.isAdmin, false)),
      this.dashboard.projectStatusCounts(undefined),
      this.db
        .select({ type: tasks.type, running: sql<boolean>`${tasks.runner} IS NOT NULL`, n: count() })
        .from(tasks)
        .where(eq(tasks.status, 'ongoing'))
        .groupBy(tasks.type, sql`${tasks.runner} IS NOT NULL`),
    ]);
    return { sessions: live[0]?.n ?? 0, tenants, projects, tasks: ongoing };
  }
}
