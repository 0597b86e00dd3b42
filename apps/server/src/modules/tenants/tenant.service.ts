import { randomBytes } from 'node:crypto';
import type { TableSetting, TenantCreateBody, TenantPatchBody, TenantView } from '@gantry/shared';
import { and, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { ListQuery } from '../../lib/list-query/list-query.js';
import { canReadUser, mayUpdateUser, tenantScope } from '../../policy/policy.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { AuthService } from '../auth/auth.service.js';
import type { LicenceService } from '../licence/licence.service.js';
import type { PlatformLicenceService } from '../licence/platform-licence.service.js';
import type { UserRow } from '../users/user.repository.js';
import { tenantViewOf } from './tenant.presenter.js';
import type { TenantRepository, TenantValues } from './tenant.repository.js';

export interface TenantDeps {
  db: Database;
  repo: TenantRepository;
  licence: LicenceService;
  platformLicence: PlatformLicenceService;
  audit: AuditService;
  auth: AuthService;
  clock: Clock;
}

export class TenantService {
  constructor(private readonly deps: TenantDeps) {}

  async list(user: UserRow, query: ListQuery) {
    const { rows, total } = await this.deps.repo.list(query, tenantScope(user));
    return { items: rows.map((row) => tenantViewOf(row, this.deps.licence.today())), total };
  }

  count(user: UserRow, where: SQL | undefined) {
    return this.deps.repo.count(and(tenantScope(user), where));
  }

  /** One user record: a tenant reads only itself; the administrator any tenant and itself. */
  async get(user: UserRow, id: string): Promise<TenantView> {
    if (!canReadUser(user, id)) throw new AppError('notFound');
    const row = id === user.id ? await this.deps.repo.findUser(id) : await this.deps.repo.find(id);
    if (!row) throw new AppError('notFound');
    return tenantViewOf(row, this.deps.licence.today(), true);
  }

  async create(actor: Actor, body: TenantCreateBody): Promise<TenantView> {
    const { db, repo, licence, audit, auth, clock } = this.deps;
    const id = body.id ?? `t${randomBytes(5).toString('hex')}`;
    await this.deps.platformLicence.assertUsable('tenant', actor.user);
    const passwordHash = await auth.hashPassword(body.password);
    const values: TenantValues = {
      name: body.name,
      type: body.type,
      industry: body.industry,
      grant: body.grant,
      remarks: body.remarks ?? null,
      logo: body.logo ?? null,
      permissions: body.permissions,
    };
    await db.transaction(async (tx) => {
      await licence.assertFits(tx, body.grant, { kind: 'tenant' });
      if (!(await repo.create(tx, id, values, passwordHash, clock()))) {
        throw new AppError('tenantIdTaken', { fields: { id: 'tenant.idTaken' } });
      }
      await audit.record(actor, { action: 'tenant.create', objectType: 'tenant', objectId: id, tenantId: id }, tx);
    });
    return this.get(actor.user, id);
  }

  /**
   * PATCH user/{id}. Table preferences may be saved by anyone on their own record; every other
   * field is the administrator's, on tenants only.
   */
  async update(actor: Actor, id: string, body: TenantPatchBody): Promise<TenantView> {
    const { db, repo, licence, audit, auth, clock } = this.deps;
    const { tableSettings, ...fields } = body;
    const changesTenant = Object.keys(fields).length > 0;
    if (!mayUpdateUser(actor.user, id, changesTenant)) throw new AppError('forbidden');
    if (tableSettings && !changesTenant) {
      if (id !== actor.user.id && !(await repo.find(id))) throw new AppError('notFound');
      await this.saveTableSettings(id, tableSettings);
    }
    if (changesTenant) {
      // Preferences sent with tenant fields are saved with them, or not at all.
      await db.transaction(async (tx) => {
        const current = await repo.find(id, tx, true);
        if (!current) throw new AppError('notFound');
        if (fields.grant) {
          await licence.assertFits(tx, fields.grant, { kind: 'tenant', tenantId: id }, current.grant);
        }
        await repo.update(tx, id, fields, clock());
        if (tableSettings) await this.saveTableSettings(id, tableSettings, tx);
        await audit.record(
          actor,
          {
            action: 'tenant.update',
            objectType: 'tenant',
            objectId: id,
            tenantId: id,
            detail: { fields: Object.keys(fields) },
          },
          tx,
        );
        await auth.forgetCachedUser(id, tx);
      });
    } else {
      await auth.forgetCachedUser(id);
    }
    return this.get(actor.user, id);
  }

  private async saveTableSettings(id: string, patch: Record<string, TableSetting | null>, db?: Database) {
    if (!(await this.deps.repo.mergeTableSettings(id, patch, db))) {
      throw new AppError('validation', {
        fields: { tableSettings: 'error.invalidField' },
        params: { field: 'tableSettings' },
      });
    }
  }

  /** Disables the tenant and all its projects (data kept) and ends its sessions. */
  async disable(actor: Actor, id: string): Promise<TenantView> {
    const { db, repo, audit, auth, clock } = this.deps;
    await db.transaction(async (tx) => {
      await repo.lockProjects(tx, id);
      if (!(await repo.find(id, tx, true))) throw new AppError('notFound');
      await repo.setStatus(tx, id, false, clock());
      const disabled = await repo.setProjectsStatus(tx, id, false);
      await audit.record(
        actor,
        {
          action: 'tenant.disable',
          objectType: 'tenant',
          objectId: id,
          tenantId: id,
          detail: { projects: disabled.length },
        },
        tx,
      );
    });
    await auth.endSessions(id);
    return this.get(actor.user, id);
  }

  /** Enables the tenant, and with it the listed projects (which must be its own). */
  async enable(actor: Actor, id: string, projectIds: string[]): Promise<TenantView> {
    const { db, repo, audit, auth, clock } = this.deps;
    const wanted = [...new Set(projectIds)];
    await db.transaction(async (tx) => {
      await repo.lockProjects(tx, id);
      if (!(await repo.find(id, tx, true))) throw new AppError('notFound');
      const own = new Set(await repo.projectIdsOf(tx, id, wanted));
      const foreign = wanted.filter((p) => !own.has(p));
      if (foreign.length > 0) {
        throw new AppError('notTenantProject', { params: { ids: foreign.slice(0, 10).join(', ') } });
      }
      await repo.setStatus(tx, id, true, clock());
      if (wanted.length > 0) await repo.setProjectsStatus(tx, id, true, wanted);
      await audit.record(
        actor,
        { action: 'tenant.enable', objectType: 'tenant', objectId: id, tenantId: id, detail: { projects: wanted } },
        tx,
      );
      await auth.forgetCachedUser(id, tx);
    });
    return this.get(actor.user, id);
  }

  setStatus(actor: Actor, id: string, status: boolean): Promise<TenantView> {
    return status ? this.enable(actor, id, []) : this.disable(actor, id);
  }

  /** Refuses while the tenant owns any project: its projects are never deleted silently. */
  async delete(actor: Actor, id: string): Promise<void> {
    const { db, repo, audit, auth } = this.deps;
    await db.transaction(async (tx) => {
      if (!(await repo.find(id, tx, true))) throw new AppError('notFound');
      const owned = await repo.projectCount(tx, id);
      if (owned > 0) throw new AppError('tenantHasProjects', { params: { count: owned } });
      await repo.delete(tx, id);
      await audit.record(actor, { action: 'tenant.delete', objectType: 'tenant', objectId: id, tenantId: id }, tx);
      await auth.forgetCachedUser(id, tx);
    });
  }

  /** Step 1 of the two-step change: the administrator's own password. */
  async verifyAdmin(actor: Actor, password: string): Promise<void> {
    if (!(await this.deps.auth.verifyPassword(actor.user.id, password))) {
      throw new AppError('verifyFailed', { fields: { password: 'auth.verifyFailed' } });
    }
  }

  /** Step 2: the tenant's new password, with the administrator's password checked again. */
  async setPassword(actor: Actor, id: string, adminPassword: string, password: string): Promise<void> {
    const { db, repo, audit, auth, clock } = this.deps;
    await this.verifyAdmin(actor, adminPassword);
    const passwordHash = await auth.hashPassword(password);
    await db.transaction(async (tx) => {
      if (!(await repo.find(id, tx, true))) throw new AppError('notFound');
      await repo.setPassword(tx, id, passwordHash, clock());
      await audit.record(actor, { action: 'tenant.password', objectType: 'tenant', objectId: id, tenantId: id }, tx);
    });
    await auth.passwordChanged(id);
  }
}
