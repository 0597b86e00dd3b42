import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  ADMIN_USER_ID,
  domainKey,
  FEATURE_FOR,
  type ProjectBatchBody,
  type ProjectCreateBody,
  type ProjectExpand,
  type ProjectUpdateBody,
  type ProjectView,
  projectExpandSchema,
  type UsageReport,
} from '@gantry/shared';
import { and } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { FileStore } from '../../lib/file-store.js';
import type { Equalities, ListQuery, ParsedFilter } from '../../lib/list-query/list-query.js';
import { type JsonPage, projected } from '../../lib/list-response.js';
import type { Storage } from '../../lib/storage.js';
import {
  mayCreateProjectType,
  mayReportUsageWithoutKey,
  projectOwnerFor,
  projectOwnerScope,
  projectScope,
  reachableProject,
} from '../../policy/policy.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { LicenceService } from '../licence/licence.service.js';
import type { PlatformLicenceService } from '../licence/platform-licence.service.js';
import type { UserRow } from '../users/user.repository.js';
import { projectViewOf, renderedProjectView } from './project.presenter.js';
import type { MaintainedTotal, ProjectInsert, ProjectRepository, ProjectWithOwner } from './project.repository.js';
import { expandValues } from './project-expand.js';

export const PROJECTS_AREA = 'projects';

/**
 * Removes a project's files: its folders in the data directory (certificates, local scratch) and
 * its areas in the file store (media, html, backup archives), which are other places only when the
 * store is object storage.
 */
export async function removeProjectFiles(
  storage: Storage,
  store: Pick<FileStore, 'removeArea'>,
  projectId: string,
): Promise<void> {
  await storage.remove(PROJECTS_AREA, projectId);
  await storage.remove('backups', projectId);
  for (const area of [
    `${PROJECTS_AREA}/${projectId}/fileServer`,
    `${PROJECTS_AREA}/${projectId}/html`,
    `backups/${projectId}`,
  ]) {
    await store.removeArea(area);
  }
}
const AVAILABLE_LIMIT = 10_000;

export interface ProjectDeps {
  db: Database;
  repo: ProjectRepository;
  licence: LicenceService;
  platformLicence: PlatformLicenceService;
  audit: AuditService;
  storage: Storage;
  store: Pick<FileStore, 'removeArea'>;
  clock: Clock;
  /** Whether list pages are built as JSON by the database (PostgreSQL) or shaped here (PGlite). */
  pagesInDatabase: boolean;
  /** The project sites (issue 15): ports claimed before a save commits, listeners following every change. */
  sites?: ProjectSiteHooks;
  /** The project extension schema (settings/project); none: `extra` is free-form. */
  expand?: () => Promise<ProjectExpand>;
  /** The ports the administrator allows projects (settings `sitePorts`); none: any the schema takes. */
  sitePorts?: () => Promise<{ min: number; max: number }>;
}

/**
 * A project's new port must lie in the administrator's range (settings `sitePorts`), checked before
 * the port is tried: outside it a tenant learns nothing of which ports other programs hold. A port the
 * project keeps is not checked again (a narrowed range leaves the ports in use as they are).
 */
function checkPortRange(
  range: { min: number; max: number } | undefined,
  port: number | null | undefined,
  kept?: number | null,
): void {
  if (!range || port === null || port === undefined || port === kept) return;
  if (port >= range.min && port <= range.max) return;
  const params = { min: range.min, max: range.max };
  throw new AppError('sitePortOutsideRange', {
    params,
    fields: { port: { key: 'project.portOutsideRange', params } },
  });
}

export interface ProjectSiteHooks {
  /** Inside a save's transaction: the new port must be one this server can listen on (else the save fails). */
  claimPort(projectId: string, port: number | null): Promise<void>;
  /** After a change, committed or not: the sites follow the stored row. Never throws. */
  changed(projectId: string): Promise<void>;
  /** A certificate pair about to be stored: refused when it is not a matching, valid pair. */
  checkCertificate(key: Buffer, pem: Buffer): void;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
/** 'p' and 48 random bits in hex: starts with a letter, lowercase letters and digits only. */
const newProjectId = () => `p${randomBytes(6).toString('hex')}`;

/** Unique-index violations → the field that clashed. */
function uniqueViolation(error: unknown): AppError | undefined {
  const inner = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  if (!(inner instanceof Error) || !('code' in inner) || inner.code !== '23505') return undefined;
  const constraint = 'constraint' in inner && typeof inner.constraint === 'string' ? inner.constraint : '';
  const where = `${constraint} ${inner.message}`;
  if (where.includes('port')) return new AppError('portTaken', { fields: { port: 'project.portTaken' } });
  if (where.includes('domain')) return new AppError('domainTaken', { fields: { domain: 'project.domainTaken' } });
  return new AppError('projectIdTaken', { fields: { id: 'project.idTaken' } });
}

export class ProjectService {
  constructor(private readonly deps: ProjectDeps) {}

  /**
   * A page of the list, as JSON text the route sends as it is. On PostgreSQL the database builds it
   * (`projectViewSql`, the SQL form of `projectViewOf`); on the embedded engine, whose one
   * WebAssembly session is the bottleneck, rows come back and `projectViewOf` shapes them by the
   * schema, so they are serialised without zod's response check (docs/DECISIONS.md, "The project
   * list without per-row work").
   */
  async list(user: UserRow, query: ListQuery): Promise<JsonPage> {
    const scope = projectScope(user);
    const maintained = maintainedTotal(user, query.equalities);
    const today = this.deps.licence.today();
    if (this.deps.pagesInDatabase) {
      return this.deps.repo.listJson(query, scope, renderedProjectView(today, query.fields), maintained);
    }
    const { rows, total } = await this.deps.repo.list(query, scope, maintained);
    const items = rows.map((row) => projectViewOf(row, today));
    return { json: JSON.stringify(projected(items, query.fields)), total };
  }

  count(user: UserRow, filter: ParsedFilter) {
    return this.deps.repo.count(and(projectScope(user), filter.where), maintainedTotal(user, filter.equalities));
  }

  available(user: UserRow) {
    return this.deps.repo.available(projectScope(user), AVAILABLE_LIMIT);
  }

  /** A project the user may see; anyone else's is 'not found', never 'forbidden' (no probing). */
  async visible(user: UserRow, id: string, db?: Database, lock = false): Promise<ProjectWithOwner> {
    return reachableProject(user, await this.deps.repo.find(id, db, lock));
  }

  async get(user: UserRow, id: string): Promise<ProjectView> {
    return projectViewOf(await this.visible(user, id), this.deps.licence.today());
  }

  /** The owner the policy lets `user` act for; naming another owner is refused, not ignored. */
  private ownerFor(user: UserRow, requested: string | undefined): string {
    const owner = projectOwnerFor(user, requested);
    if (owner === undefined) throw new AppError('forbidden');
    return owner;
  }

  private async assertMayCreate(user: UserRow, body: { projectType: string }): Promise<void> {
    const permissions = await this.deps.repo.permissionsOf(user.id);
    if (!mayCreateProjectType(user, permissions, body.projectType)) {
      throw new AppError('projectTypeNotAllowed', { fields: { projectType: 'project.typeNotAllowed' } });
    }
  }

  private columns(body: ProjectUpdateBody | ProjectCreateBody): Omit<ProjectInsert, 'id' | 'userId'> {
    const domain = body.domain ? body.domain : null;
    const advanced = body.advanced.mediaLibraryPublicDirEnable
      ? body.advanced
      : { mediaLibraryPublicDirEnable: false, mediaLibraryPublicDirFeature: [] };
    return {
      name: body.name,
      industry: body.industry,
      grant: body.grant,
      projectType: body.projectType,
      templateId: body.projectType === 'template' ? (body.type ?? null) : null,
      hasSso: body.hasSSO,
      remarks: body.remarks ?? null,
      bgColor: body.bgColor ?? null,
      domain,
      domainKey: domain ? domainKey(domain) : null,
      isUseDomain: body.isUseDomain,
      isUseHttps: body.isUseHttps,
      port: body.port ?? null,
      advanced,
      planId: body.planId ?? null,
      logo: body.logo ?? null,
      ...(body.extra ? { extra: body.extra } : {}),
    };
  }

  async create(actor: Actor, body: ProjectCreateBody): Promise<ProjectView> {
    const { db, repo, licence, clock } = this.deps;
    const ownerId = this.ownerFor(actor.user, body.user);
    await this.assertMayCreate(actor.user, body);
    await this.deps.platformLicence.assertUsable('project', actor.user);
    if (body.hasSSO) {
      await this.deps.platformLicence.assertFeature(FEATURE_FOR.projectSso, { ownerId, user: actor.user });
    }
    const id = body.id || newProjectId();
    // Read before the transaction: the embedded engine serves one transaction at a time.
    const expand = await this.deps.expand?.();
    checkPortRange(await this.deps.sitePorts?.(), body.port);
    return this.written(id, actor.user, () =>
      db.transaction(async (tx) => {
        await licence.assertFits(tx, body.grant, { kind: 'project', ownerId });
        if (ownerId !== ADMIN_USER_ID && !(await repo.ownerStatus(tx, ownerId))) throw new AppError('tenantDisabled');
        const at = clock();
        const extra = await expandValues(expand, body.extra, undefined, 'create', tx, at);
        await repo.insert(tx, {
          id,
          userId: ownerId,
          ...this.columns({ ...body, ...(extra ? { extra } : {}) }),
          createdAt: at,
          updatedAt: at,
        });
        await this.claimPortAndRecord(tx, actor, 'project.create', id, ownerId, body.port);
      }),
    );
  }

  async update(actor: Actor, id: string, body: ProjectUpdateBody): Promise<ProjectView> {
    const { db, repo, licence, clock } = this.deps;
    const expand = await this.deps.expand?.();
    const ports = await this.deps.sitePorts?.();
    return this.written(id, actor.user, () =>
      db.transaction(async (tx) => {
        const current = await this.visible(actor.user, id, tx, true);
        checkPortRange(ports, body.port, current.port);
        const ownerId = this.ownerFor(actor.user, body.user ?? current.userId);
        // Turning single sign-on on needs the feature (platform and owner); a project that has it keeps it.
        if (body.hasSSO && !current.hasSso) {
          await this.deps.platformLicence.assertFeature(FEATURE_FOR.projectSso, {
            db: tx,
            ownerId,
            user: actor.user,
          });
        }
        await licence.assertFits(tx, body.grant, { kind: 'project', ownerId, projectId: id }, current.grant);
        // An enabled project moved to a disabled tenant would be the one enabled project it has.
        const moved = ownerId !== current.userId && ownerId !== ADMIN_USER_ID;
        if (moved && current.status && !(await repo.ownerStatus(tx, ownerId))) throw new AppError('tenantDisabled');
        const extra = await expandValues(expand, body.extra, current.extra, 'update', tx, clock());
        await repo.update(tx, id, {
          ...this.columns({ ...body, ...(extra ? { extra } : {}) }),
          userId: ownerId,
          updatedAt: clock(),
        });
        await this.claimPortAndRecord(tx, actor, 'project.update', id, ownerId, body.port);
      }),
    );
  }

  /** Runs the write of project `id`: a taken id or port answered as such, the sites told after; the project. */
  private async written(id: string, user: UserRow, write: () => Promise<void>): Promise<ProjectView> {
    try {
      await write();
    } catch (error) {
      throw uniqueViolation(error) ?? error;
    } finally {
      await this.deps.sites?.changed(id);
    }
    return this.get(user, id);
  }

  /** The end of a create or an update in `tx`: the project's site port claimed, the change audited. */
  private async claimPortAndRecord(
    tx: Database,
    actor: Actor,
    action: 'project.create' | 'project.update',
    id: string,
    ownerId: string,
    port: number | null | undefined,
  ): Promise<void> {
    await this.deps.sites?.claimPort(id, port ?? null);
    await this.deps.audit.record(
      actor,
      { action, objectType: 'project', objectId: id, tenantId: tenantOf(ownerId) },
      tx,
    );
  }

  /** The extension schema (settings/project); the empty one without settings. */
  async expandSchema(): Promise<ProjectExpand> {
    return this.deps.expand ? this.deps.expand() : projectExpandSchema.parse({});
  }

  /**
   * Batch change (console.md §2 settings/project, the project list): the same batch-changeable
   * extension values set on several projects, all or none. Every project must be one the caller may
   * change (another tenant's: 404, naming none of its data).
   */
  async batchChange(actor: Actor, body: ProjectBatchBody): Promise<{ updated: number }> {
    const { db, repo, audit, clock } = this.deps;
    const ids = [...new Set(body.ids)];
    const expand = await this.deps.expand?.();
    await db.transaction(async (tx) => {
      for (const id of ids) {
        const current = await this.visible(actor.user, id, tx, true);
        const extra = await expandValues(expand, body.extra, current.extra, 'batch', tx, clock());
        await repo.update(tx, id, { extra: extra ?? {}, updatedAt: clock() });
        await audit.record(
          actor,
          { action: 'project.update', objectType: 'project', objectId: id, tenantId: tenantOf(current.userId) },
          tx,
        );
      }
    });
    return { updated: ids.length };
  }

  /** Enabling a project of a disabled tenant is refused: enable the tenant (with it) instead. */
  async setStatus(actor: Actor, id: string, status: boolean): Promise<ProjectView> {
    const { db, repo, audit, clock } = this.deps;
    await db.transaction(async (tx) => {
      const current = await this.visible(actor.user, id, tx, true);
      if (status && current.userId !== ADMIN_USER_ID && !(await repo.ownerStatus(tx, current.userId))) {
        throw new AppError('tenantDisabled');
      }
      await repo.update(tx, id, { status, updatedAt: clock() });
      await audit.record(
        actor,
        {
          action: status ? 'project.enable' : 'project.disable',
          objectType: 'project',
          objectId: id,
          tenantId: tenantOf(current.userId),
        },
        tx,
      );
    });
    await this.deps.sites?.changed(id);
    return this.get(actor.user, id);
  }

  /** Permanent: the row, its usage and its files. */
  async delete(actor: Actor, id: string): Promise<void> {
    const { db, repo, audit, storage } = this.deps;
    await db.transaction(async (tx) => {
      const current = await this.visible(actor.user, id, tx, true);
      await repo.delete(tx, id);
      await audit.record(
        actor,
        {
          action: 'project.delete',
          objectType: 'project',
          objectId: id,
          tenantId: tenantOf(current.userId),
          detail: { name: current.name },
        },
        tx,
      );
    });
    await this.deps.sites?.changed(id);
    // Its backup files too: their records went with the project (ON DELETE CASCADE).
    await removeProjectFiles(storage, this.deps.store, id);
  }

  /**
   * Stores a certificate pair: the row, its audit entry and the files in one transaction. The files
   * are written last, inside it, so a refused row or audit entry leaves the previous pair in place,
   * and a failed write rolls the row back.
   */
  async saveCertificate(
    actor: Actor,
    id: string,
    files: { key: { name: string; data: Buffer }; pem: { name: string; data: Buffer } },
  ) {
    const { db, repo, audit, storage, clock } = this.deps;
    this.deps.sites?.checkCertificate(files.key.data, files.pem.data);
    await db.transaction(async (tx) => {
      const project = await this.visible(actor.user, id, tx, true);
      await repo.updateUnlisted(tx, id, { certKey: files.key.name, certPem: files.pem.name, updatedAt: clock() });
      await audit.record(
        actor,
        { action: 'project.certificate', objectType: 'project', objectId: id, tenantId: tenantOf(project.userId) },
        tx,
      );
      const folder = `${project.id}/cert`;
      await storage.remove(PROJECTS_AREA, folder);
      await storage.write(PROJECTS_AREA, `${folder}/${files.key.name}`, files.key.data);
      await storage.write(PROJECTS_AREA, `${folder}/${files.pem.name}`, files.pem.data);
    });
    await this.deps.sites?.changed(id);
    return { key: files.key.name, pem: files.pem.name };
  }

  async certificate(user: UserRow, id: string): Promise<{ key: string; pem: string }> {
    const project = await this.visible(user, id);
    if (!project.certKey || !project.certPem) throw new AppError('notFound');
    return { key: project.certKey, pem: project.certPem };
  }

  /** A new runtime key for usage reports; only its hash is kept, so it is shown once. */
  async issueRuntimeKey(actor: Actor, id: string): Promise<string> {
    const { db, repo, audit } = this.deps;
    const key = randomBytes(32).toString('base64url');
    await db.transaction(async (tx) => {
      const project = await this.visible(actor.user, id, tx, true);
      await repo.updateUnlisted(tx, id, { runtimeKeyHash: sha256(key) });
      await audit.record(
        actor,
        { action: 'project.runtimeKey', objectType: 'project', objectId: id, tenantId: tenantOf(project.userId) },
        tx,
      );
    });
    return key;
  }

  /** Stores a usage report from the project's runtime (its key) or the administrator. */
  async reportUsage(id: string, caller: { user?: UserRow | undefined; key?: string | undefined }, report: UsageReport) {
    const project = await this.deps.repo.find(id);
    const byAdmin = mayReportUsageWithoutKey(caller.user);
    const byKey =
      project?.runtimeKeyHash !== null &&
      project?.runtimeKeyHash !== undefined &&
      caller.key !== undefined &&
      timingSafeEqual(Buffer.from(sha256(caller.key)), Buffer.from(project.runtimeKeyHash));
    if (!byAdmin && !byKey) throw new AppError('runtimeKeyInvalid');
    if (!project) throw new AppError('notFound');
    await this.deps.repo.updateUnlisted(this.deps.db, id, {
      usage: report.usage,
      stats: report._stats_,
      ...(report.online !== undefined ? { online: report.online } : {}),
      usageReportedAt: this.deps.clock(),
    });
  }
}

/** Audit entries of a tenant's projects are the tenant's to see; platform projects are no tenant's. */
export function tenantOf(ownerId: string): string | null {
  return ownerId === ADMIN_USER_ID ? null : ownerId;
}

/**
 * The maintained total that is exactly the caller's scope ANDed with a filter of owner (`user`)
 * and/or `status` equalities; undefined for any other filter (it is counted instead).
 */
export function maintainedTotal(user: UserRow, equalities: Equalities | undefined): MaintainedTotal | undefined {
  if (!equalities) return undefined;
  const { user: owner, status, ...others } = equalities;
  if (Object.keys(others).length > 0) return undefined;
  if ((owner !== undefined && typeof owner !== 'string') || (status !== undefined && typeof status !== 'boolean')) {
    return undefined;
  }
  const scoped = projectOwnerScope(user);
  // A tenant asking for another owner's projects gets none: counted (at once) rather than looked up.
  if (scoped !== undefined && owner !== undefined && owner !== scoped) return undefined;
  return { userId: scoped ?? owner, status };
}
