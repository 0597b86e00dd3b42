import { type BackupFailureView, type Grant, MEASURES, type MeasureValues, measureOf, viewGrant } from '@gantry/shared';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import { auditScope, overseesTenants, projectOwnerScope, projectScope } from '../../policy/policy.js';
import { auditView } from '../audit/audit.presenter.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { LicenceService } from '../licence/licence.service.js';
import type { UserRow } from '../users/user.repository.js';
import type { DashboardRepository, Ending } from './dashboard.repository.js';

const RECENT_AUDIT = 10;

/** What `/app/dashboard` shows: counts, licence use, grants about to end, recent audit entries. */
export class DashboardService {
  constructor(
    private readonly repo: DashboardRepository,
    private readonly audit: AuditRepository,
    private readonly licence: LicenceService,
    /** Periodic backups whose latest run failed, in the user's projects (issue 13 §3). */
    private readonly backupFailures: (user: UserRow) => Promise<BackupFailureView[]> = async () => [],
  ) {}

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
    const scope = projectScope(user);
    const [projectCounts, tenantCounts, audit, endingProjects, endingTenants, usage, backupFailures] =
      await Promise.all([
        this.repo.projectStatusCounts(projectOwnerScope(user)),
        overseesTenants(user) ? this.repo.statusCounts(users, eq(users.isAdmin, false)) : null,
        this.audit.recent(auditScope(user), RECENT_AUDIT),
        this.repo.endingProjects(scope, today),
        overseesTenants(user) ? this.repo.endingTenants(today) : [],
        this.licence.usageOf(user),
        this.backupFailures(user),
      ]);
    const ending = (rows: Ending[]) =>
      rows.flatMap((r) => {
        if (!r.grant) return [];
        const view = viewGrant(r.grant, today);
        return [{ id: r.id, name: r.name, endTime: view.endTime, remainingTime: view.remainingTime }];
      });
    return {
      tenants: tenantCounts,
      projects: projectCounts,
      licence: usage
        ? {
            kind: user.isAdmin ? ('platform' as const) : ('tenant' as const),
            grant: viewGrant(usage.grant, today),
            measures: this.measures(usage.grant, usage.allocated, usage.used),
          }
        : null,
      expiring: { tenants: ending(endingTenants), projects: ending(endingProjects) },
      audit: audit.map(auditView),
      backupFailures,
      today,
    };
  }
}
