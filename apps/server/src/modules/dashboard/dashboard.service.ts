import { type Grant, LICENCE_WARNING_DAYS, MEASURES, type MeasureValues, measureOf, viewGrant } from '@gantry/shared';
import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { auditLog, projects, users } from '../../db/schema.js';
import { auditScope, projectScope } from '../../policy/policy.js';
import type { LicenceService } from '../licence/licence.service.js';
import type { UserRow } from '../users/user.repository.js';

const RECENT_AUDIT = 10;
const EXPIRING_LIMIT = 20;

/** The first day a grant column no longer covers, as an SQL date. */
const endOf = (grant: typeof users.grant | typeof projects.grant) =>
  sql`((${grant}->>'startTime')::date + (${grant}->>'validityPeriod')::int)`;

function expiringWhere(grant: typeof users.grant | typeof projects.grant, today: string): SQL {
  return sql`${grant} IS NOT NULL AND ${endOf(grant)} > ${today}::date AND ${endOf(grant)} <= ${today}::date + ${LICENCE_WARNING_DAYS}::int`;
}

/** What `/app/dashboard` shows: counts, licence use, grants about to end, recent audit entries. */
export class DashboardService {
  constructor(
    private readonly db: Database,
    private readonly licence: LicenceService,
  ) {}

  private async statusCounts(table: typeof users | typeof projects, where: SQL | undefined) {
    const rows = await this.db
      .select({ status: table.status, n: count() })
      .from(table)
      .where(where)
      .groupBy(table.status);
    return {
      enabled: rows.find((r) => r.status)?.n ?? 0,
      disabled: rows.find((r) => !r.status)?.n ?? 0,
    };
  }

  private measures(grant: Grant, allocated: MeasureValues, used: MeasureValues) {
    return MEASURES.filter(({ path }) => measureOf(grant, path) !== undefined || allocated[path] !== undefined).map(
      ({ path }) => ({
        path,
        granted: measureOf(grant, path) ?? null,
        allocated: allocated[path] ?? 0,
        used: used[path] ?? 0,
      }),
    );
  }

  async forUser(user: UserRow) {
    const today = this.licence.today();
    const repo = this.licence.repo;
    const scope = projectScope(user);
    const [projectCounts, tenantCounts, audit, expiringProjects, expiringTenants] = await Promise.all([
      this.statusCounts(projects, scope),
      user.isAdmin ? this.statusCounts(users, eq(users.isAdmin, false)) : Promise.resolve(null),
      this.db
        .select()
        .from(auditLog)
        .where(auditScope(user))
        .orderBy(desc(auditLog.at), desc(auditLog.id))
        .limit(RECENT_AUDIT),
      this.db
        .select({ id: projects.id, name: projects.name, grant: projects.grant })
        .from(projects)
        .where(and(scope, expiringWhere(projects.grant, today)))
        .orderBy(endOf(projects.grant))
        .limit(EXPIRING_LIMIT),
      user.isAdmin
        ? this.db
            .select({ id: users.id, name: users.name, grant: users.grant })
            .from(users)
            .where(and(eq(users.isAdmin, false), expiringWhere(users.grant, today)))
            .orderBy(endOf(users.grant))
            .limit(EXPIRING_LIMIT)
        : Promise.resolve([]),
    ]);

    let licence = null;
    if (user.isAdmin) {
      const platform = await repo.platform();
      if (platform) {
        const [allocated, used] = await Promise.all([repo.allocatedByPlatform(this.db), repo.used()]);
        licence = {
          kind: 'platform' as const,
          grant: viewGrant(platform.grant, today),
          measures: this.measures(platform.grant, allocated, used),
        };
      }
    } else if (user.grant) {
      const grant = user.grant as Grant;
      const [allocated, used] = await Promise.all([repo.allocatedByTenant(this.db, user.id), repo.used(user.id)]);
      licence = {
        kind: 'tenant' as const,
        grant: viewGrant(grant, today),
        measures: this.measures(grant, allocated, used),
      };
    }

    const ending = (rows: Array<{ id: string; name: string; grant: unknown }>) =>
      rows.map((r) => {
        const view = viewGrant(r.grant as Grant, today);
        return { id: r.id, name: r.name, endTime: view.endTime, remainingTime: view.remainingTime };
      });
    return {
      tenants: tenantCounts,
      projects: projectCounts,
      licence,
      expiring: { tenants: ending(expiringTenants), projects: ending(expiringProjects) },
      audit: audit.map((a) => ({ ...a, at: a.at.toISOString() })),
      today,
    };
  }
}
