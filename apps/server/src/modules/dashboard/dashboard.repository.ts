import { type Grant, LICENCE_WARNING_DAYS } from '@gantry/shared';
import { and, count, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { projectCounts, projects, users } from '../../db/schema.js';

const EXPIRING_LIMIT = 20;

type GrantColumn = typeof users.grant | typeof projects.grant;

/** The first day a grant column no longer covers, as an SQL date. */
const endOf = (grant: GrantColumn) => sql`((${grant}->>'startTime')::date + (${grant}->>'validityPeriod')::int)`;

function endingSoon(grant: GrantColumn, today: string): SQL {
  return sql`${grant} IS NOT NULL AND ${endOf(grant)} > ${today}::date AND ${endOf(grant)} <= ${today}::date + ${LICENCE_WARNING_DAYS}::int`;
}

export interface Ending {
  id: string;
  name: string;
  /** Never null here: only rows with a grant end. */
  grant: Grant | null;
}

/** The dashboard's counting queries. */
export class DashboardRepository {
  constructor(private readonly db: Database) {}

  /** Projects by status, of one owner or (undefined) all: from the maintained `project_counts`. */
  async projectStatusCounts(owner: string | undefined) {
    const rows = await this.db
      .select({ status: projectCounts.status, n: sql<number>`sum(${projectCounts.n})`.mapWith(Number) })
      .from(projectCounts)
      .where(owner === undefined ? undefined : eq(projectCounts.userId, owner))
      .groupBy(projectCounts.status);
    return { enabled: rows.find((r) => r.status)?.n ?? 0, disabled: rows.find((r) => !r.status)?.n ?? 0 };
  }

  async statusCounts(table: typeof users, where: SQL | undefined) {
    const rows = await this.db
      .select({ status: table.status, n: count() })
      .from(table)
      .where(where)
      .groupBy(table.status);
    return { enabled: rows.find((r) => r.status)?.n ?? 0, disabled: rows.find((r) => !r.status)?.n ?? 0 };
  }

  /** Projects in scope whose grant ends within the warning days, soonest first. */
  endingProjects(scope: SQL | undefined, today: string): Promise<Ending[]> {
    return this.db
      .select({ id: projects.id, name: projects.name, grant: projects.grant })
      .from(projects)
      .where(and(scope, endingSoon(projects.grant, today)))
      .orderBy(endOf(projects.grant))
      .limit(EXPIRING_LIMIT);
  }

  endingTenants(today: string): Promise<Ending[]> {
    return this.db
      .select({ id: users.id, name: users.name, grant: users.grant })
      .from(users)
      .where(and(eq(users.isAdmin, false), endingSoon(users.grant, today)))
      .orderBy(endOf(users.grant))
      .limit(EXPIRING_LIMIT);
  }
}
