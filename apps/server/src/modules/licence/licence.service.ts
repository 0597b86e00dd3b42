import {
  ADMIN_USER_ID,
  childrenSpan,
  type Grant,
  type GrantView,
  grantProblems,
  localDate,
  MEASURES,
  type MeasureValues,
  measureOf,
  viewGrant,
} from '@gantry/shared';
import type { Database } from '../../db/database.js';
import { AppError, type FieldMessage } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { overseesTenants, projectOwnerFor } from '../../policy/policy.js';
import type { UserRow } from '../users/user.repository.js';
import type { LicenceRepository, PlatformRecord } from './licence.repository.js';

/** Which grant is being placed: a tenant's (from the platform) or a project's (from its owner). */
export type GrantTarget =
  | { kind: 'tenant'; tenantId?: string | undefined }
  | { kind: 'project'; ownerId: string; projectId?: string | undefined };

export interface Pool {
  parent: Grant | undefined;
  parentKind: 'platform' | 'tenant';
  /** What the parent's other children hold. */
  allocated: MeasureValues;
}

export interface PoolView {
  parent: GrantView | null;
  parentKind: 'platform' | 'tenant';
  allocated: MeasureValues;
  available: MeasureValues;
  today: string;
}

/**
 * The two-level allocation of design D7: platform → tenant → project. Every check runs inside the
 * caller's transaction after locking the parent's row, so concurrent allocations queue on that lock
 * and can never together exceed the parent. Lock order, everywhere: project rows, then the tenant
 * row, then the platform licence row (anything else can deadlock on PostgreSQL).
 */
export class LicenceService {
  constructor(
    readonly db: Database,
    readonly repo: LicenceRepository,
    private readonly clock: Clock,
    /** The platform grant in force: the signed one (refuses a grant column the stored file does not sign). */
    private readonly platformGrant: (record: PlatformRecord) => Grant = (record) => record.grant,
  ) {}

  today(): string {
    return localDate(this.clock());
  }

  /** The parent and what its other children hold; with `lock`, the parent's row stays locked. */
  async pool(db: Database, target: GrantTarget, lock = false): Promise<Pool> {
    if (target.kind === 'tenant') {
      const platform = await this.repo.platform(db, lock);
      const allocated = await this.repo.allocatedByPlatform(db, { tenant: target.tenantId });
      return { parent: platform && this.platformGrant(platform), parentKind: 'platform', allocated };
    }
    if (target.ownerId === ADMIN_USER_ID) {
      const platform = await this.repo.platform(db, lock);
      const allocated = await this.repo.allocatedByPlatform(db, { project: target.projectId });
      return { parent: platform && this.platformGrant(platform), parentKind: 'platform', allocated };
    }
    const tenant = await this.repo.tenantGrant(db, target.ownerId, lock);
    if (!tenant) throw new AppError('ownerUnknown', { fields: { user: 'project.ownerUnknown' } });
    const allocated = await this.repo.allocatedByTenant(db, target.ownerId, target.projectId);
    return { parent: tenant.grant ?? undefined, parentKind: 'tenant', allocated };
  }

  /**
   * The pool `user` may read for a grant it is editing: `tenant` (the platform's, for tenant grants)
   * or `project` for an owner. Who may read which is the policy's; anything else is refused.
   */
  async poolFor(
    user: UserRow,
    query: { target: 'tenant' | 'project'; owner?: string | undefined; except?: string | undefined },
  ): Promise<PoolView> {
    let target: GrantTarget;
    if (query.target === 'tenant') {
      if (!overseesTenants(user)) throw new AppError('forbidden');
      target = { kind: 'tenant', tenantId: query.except };
    } else {
      const ownerId = projectOwnerFor(user, query.owner);
      if (ownerId === undefined) throw new AppError('forbidden');
      target = { kind: 'project', ownerId, projectId: query.except };
    }
    return this.view(await this.pool(this.db, target));
  }

  view(pool: Pool): PoolView {
    const today = this.today();
    const available: MeasureValues = {};
    for (const { path } of MEASURES) {
      const limit = pool.parent ? measureOf(pool.parent, path) : undefined;
      if (limit !== undefined) available[path] = Math.max(0, limit - (pool.allocated[path] ?? 0));
    }
    return {
      parent: pool.parent ? viewGrant(pool.parent, today) : null,
      parentKind: pool.parentKind,
      allocated: pool.allocated,
      available,
      today,
    };
  }

  /**
   * Locks the parent, then refuses `grant` with the spec's messages if it breaks any rule. A tenant
   * grant being edited must also still cover what its projects hold.
   */
  async assertFits(db: Database, grant: Grant, target: GrantTarget, previous?: Grant | null): Promise<void> {
    const pool = await this.pool(db, target, true);
    if (!pool.parent) {
      throw pool.parentKind === 'platform'
        ? new AppError('licenceMissing')
        : new AppError('grantInvalid', { fields: { grant: 'grant.missing' }, messageFromFields: true });
    }
    const below = target.kind === 'tenant' && target.tenantId ? target.tenantId : undefined;
    const allocatedBelow = below ? await this.repo.allocatedByTenant(db, below) : undefined;
    const children = below ? childrenSpan(await this.repo.projectGrants(db, below)) : undefined;
    const problems = grantProblems(grant, {
      parent: pool.parent,
      allocatedToOthers: pool.allocated,
      today: this.today(),
      ...(allocatedBelow ? { allocatedBelow } : {}),
      ...(children ? { children } : {}),
      ...(previous?.startTime ? { previousStart: previous.startTime } : {}),
    });
    if (problems.length === 0) return;
    const fields: Record<string, FieldMessage> = {};
    for (const problem of problems) fields[`grant.${problem.field}`] ??= { key: problem.key, params: problem.params };
    throw new AppError('grantInvalid', { fields, messageFromFields: true });
  }

  /**
   * A holder's grant with what it has handed down and what its projects report in use: the
   * platform's for the administrator, its own for a tenant. Undefined when there is no grant.
   */
  async usageOf(user: UserRow): Promise<{ grant: Grant; allocated: MeasureValues; used: MeasureValues } | undefined> {
    if (!user.isAdmin) {
      if (!user.grant) return undefined;
      const [allocated, used] = await Promise.all([
        this.repo.allocatedByTenant(this.db, user.id),
        this.repo.used(user.id),
      ]);
      return { grant: user.grant, allocated, used };
    }
    const platform = await this.repo.platform();
    if (!platform) return undefined;
    const [allocated, used] = await Promise.all([this.repo.allocatedByPlatform(this.db), this.repo.used()]);
    return { grant: platform.grant, allocated, used };
  }
}
