import { ADMIN_USER_ID, type ProjectPermissions, RIGHTS, type Right } from '@gantry/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import { auditLog, projects, tasks, templates, users } from '../db/schema.js';
import { AppError } from '../lib/app-error.js';
import type { UserRow } from '../modules/users/user.repository.js';

/**
 * Every route states the action it performs (route `config.action`); this module alone decides
 * who may perform it, which rows a caller may see and which objects they may touch (design D8).
 *  - public: anyone, signed in or not;
 *  - session: every signed-in user, about themselves;
 *  - project.report: a project runtime with its key, or the administrator (checked by the route);
 *  - the rest: named rights.
 */
export const ACTIONS = [
  'public',
  'session',
  'settings.read',
  'settings.write',
  'image.upload',
  'tenant.read',
  'tenant.write',
  'project.read',
  'project.write',
  'project.report',
  'licence.read',
  'licence.info',
  'licence.write',
  'licence.history',
  'licence.export',
  'audit.read',
  'ftpSettings.read',
  'ftpSettings.write',
  'project.data.read',
  'project.data.write',
  'task.read',
  'task.write',
  'backup.read',
  'backup.write',
  'backup.delete',
  'dbBackup.read',
  'dbBackup.write',
  'dbBackup.delete',
  'dbBackupCycle.read',
  'dbBackupCycle.write',
  'platformBackup.read',
  'platformBackup.write',
  'template.write',
  /** Every account's API tokens: list and revoke (issue 34 §3). */
  'apiToken.admin',
] as const;
export type Action = (typeof ACTIONS)[number];

/** Routes that run without a session: public ones, and runtime reports that bring their own key. */
export const NO_SESSION_NEEDED: ReadonlySet<Action> = new Set(['public', 'project.report']);

const ADMIN_ONLY: ReadonlySet<Action> = new Set([
  'settings.read',
  'settings.write',
  'image.upload',
  'tenant.write',
  'licence.info',
  'licence.write',
  'audit.read',
  'ftpSettings.read',
  'ftpSettings.write',
  'platformBackup.read',
  'platformBackup.write',
  'apiToken.admin',
]);
/** Actions granted by a named right (console.md §3: the licence history's log.view / log.export). */
const NEEDS_RIGHT: Partial<Record<Action, Right>> = { 'licence.history': 'log.view', 'licence.export': 'log.export' };

/** The named rights a user holds: the administrator all of them, a tenant none. */
export function rightsOf(user: UserRow): Right[] {
  return user.isAdmin ? [...RIGHTS] : [];
}
/** Open to every signed-in user; what they reach is narrowed per row below. */
const SCOPED: ReadonlySet<Action> = new Set([
  'tenant.read',
  'project.read',
  'project.write',
  'licence.read',
  'project.data.read',
  'project.data.write',
  'task.read',
  'task.write',
  'backup.read',
  'backup.write',
  'backup.delete',
  'dbBackup.read',
  'dbBackup.write',
  'dbBackup.delete',
  // Periodic backup cycles: a tenant those of its own projects (ownsProject), the administrator all.
  'dbBackupCycle.read',
  'dbBackupCycle.write',
  // Templates: a tenant publishes, changes and exports its own (mayManageTemplate), the administrator all.
  'template.write',
]);

export function can(user: UserRow | undefined, action: Action): boolean {
  if (NO_SESSION_NEEDED.has(action)) return true;
  if (!user?.status) return false;
  if (action === 'session') return true;
  if (ADMIN_ONLY.has(action)) return user.isAdmin;
  const right = NEEDS_RIGHT[action];
  if (right) return rightsOf(user).includes(right);
  if (SCOPED.has(action)) return true;
  return false;
}

/** Whether `user` may read or change the project owned by `ownerId`. */
export function ownsProject(user: UserRow, ownerId: string): boolean {
  return user.isAdmin || user.id === ownerId;
}

/**
 * The project `user` may reach, or 404 `notFound` (never 'forbidden': no probing). The one owner check
 * of a project a call names: the project gate's, and the services' that are also reached otherwise.
 */
export function reachableProject<P extends { ownerId: string } | { userId: string }>(
  user: UserRow,
  project: P | undefined,
): P {
  if (!project || !ownsProject(user, 'ownerId' in project ? project.ownerId : project.userId)) {
    throw new AppError('notFound');
  }
  return project;
}

/** Whether `user` may read the user record `id` (a tenant: only itself). */
/**
 * Shift table (issue 32): a table moves or is copied between two projects the user reaches (their
 * owner, or the administrator) of one owner; another tenant's target is not found (404) as anywhere.
 */
export function mayShiftTable(user: UserRow, from: { ownerId: string }, to: { ownerId: string }): void {
  reachableProject(user, from);
  reachableProject(user, to);
  if (from.ownerId !== to.ownerId) throw new AppError('tableShiftOwner');
}

export function canReadUser(user: UserRow, id: string): boolean {
  return user.isAdmin || user.id === id;
}

/** The projects a user may list, as an SQL condition (undefined: all). */
export function projectScope(user: UserRow): SQL | undefined {
  const owner = projectOwnerScope(user);
  return owner === undefined ? undefined : eq(projects.userId, owner);
}

/** The one owner whose projects a user may list (`projectScope` as a value): undefined for all. */
export function projectOwnerScope(user: UserRow): string | undefined {
  return user.isAdmin ? undefined : user.id;
}

/** The tenant records a user may list: the administrator all tenants, a tenant itself. */
export function tenantScope(user: UserRow): SQL {
  return user.isAdmin ? eq(users.isAdmin, false) : eq(users.id, user.id);
}

/** Audit entries a user may see: all for the administrator, its own tenant's for a tenant. */
export function auditScope(user: UserRow): SQL | undefined {
  return user.isAdmin ? undefined : eq(auditLog.tenantId, user.id);
}

/**
 * The owner a user acts for on a project or its pool (creating, editing, moving, reading the pool it
 * is allocated from): the administrator any owner it names (the platform, `admin`, when none); a
 * tenant only itself. Undefined: refused, as a tenant naming another owner is (never ignored).
 */
export function projectOwnerFor(user: UserRow, requested: string | undefined): string | undefined {
  if (user.isAdmin) return requested || ADMIN_USER_ID;
  return !requested || requested === user.id ? user.id : undefined;
}

/**
 * Whether `user` may create a project of `projectType`: the administrator any; a tenant as its
 * project permissions allow (blank projects, or templates from the market or its own).
 */
export function mayCreateProjectType(
  user: UserRow,
  permissions: ProjectPermissions | undefined,
  projectType: string,
): boolean {
  if (user.isAdmin) return true;
  if (!permissions) return false;
  return projectType === 'blank' ? permissions.blankProjects : permissions.marketTemplates || permissions.ownTemplates;
}

/** What the template rules look at. */
export interface TemplateOwnership {
  source: 'builtin' | 'platform' | 'tenant';
  ownerId: string | null;
  published: boolean;
}

/**
 * In the market: built-in and administrator-published templates that are published. Everyone sees
 * these, signed in or not; their pictures may be cached publicly.
 */
export const inMarket = (template: TemplateOwnership) => template.source !== 'tenant' && template.published;

/**
 * The templates a caller sees in the gallery (SQL): everyone, signed in or not, the market; a tenant
 * also its own (published or not); the administrator all of them.
 */
export function templateScope(user: UserRow | undefined): SQL | undefined {
  if (user?.status && user.isAdmin) return undefined;
  const market = sql`(${templates.source} <> 'tenant' and ${templates.published})`;
  return user?.status ? sql`(${market} or ${templates.ownerId} = ${user.id})` : market;
}

/** `templateScope` for one template. */
export function mayViewTemplate(user: UserRow | undefined, template: TemplateOwnership): boolean {
  if (user?.status && user.isAdmin) return true;
  return inMarket(template) || (user?.status === true && template.ownerId === user.id);
}

/**
 * Whether `user` may start a project from a template (console.md §3 tenant project permissions): the
 * administrator any; a tenant its own with 'allow templates I created', the market's with 'allow
 * market templates'.
 */
export function mayUseTemplate(
  user: UserRow,
  permissions: ProjectPermissions | undefined,
  template: TemplateOwnership,
): boolean {
  if (user.isAdmin) return true;
  if (!permissions) return false;
  if (template.ownerId === user.id) return permissions.ownTemplates;
  return inMarket(template) && permissions.marketTemplates;
}

/**
 * Whether `user` may change, unpublish, export or delete a template (and get its package): its owner;
 * the administrator any (built-in ones included: they are the platform's).
 */
export function mayManageTemplate(user: UserRow, template: TemplateOwnership): boolean {
  return user.isAdmin || (template.ownerId !== null && template.ownerId === user.id);
}

/** Whether `user` may publish a template (the administrator to the market, a tenant for itself). */
export function templatePublisher(user: UserRow): { source: 'platform' | 'tenant'; ownerId: string } {
  return user.isAdmin ? { source: 'platform', ownerId: user.id } : { source: 'tenant', ownerId: user.id };
}

/**
 * Whether `user` may change user record `id`: tenant fields are the administrator's (on tenants);
 * table preferences anyone's own, and the administrator's on any record.
 */
export function mayUpdateUser(user: UserRow, id: string, changesTenantFields: boolean): boolean {
  return user.isAdmin || (!changesTenantFields && id === user.id);
}

/** Whether `user` oversees tenants: their pool, counts and grants ending (the administrator). */
export function overseesTenants(user: UserRow): boolean {
  return user.isAdmin;
}

/**
 * Whether `user` may be told machine codes (the licensed one and this machine's): only the
 * administrator, whose alone GET license/machine is; a tenant learns only that they differ.
 */
export function maySeeMachineCodes(user: UserRow | undefined): boolean {
  return user?.isAdmin === true;
}

/** Whether a signed-in `user` may send a project's usage report without the project's runtime key. */
export function mayReportUsageWithoutKey(user: UserRow | undefined): boolean {
  return user?.isAdmin === true && user.status;
}

/** The tenant whose audit entries show an action by `user` when the object names none: its own. */
export function auditTenantOf(user: UserRow): string | null {
  return user.isAdmin ? null : user.id;
}

/** Whether `user` may see or pause a task: the administrator all; a tenant its projects' tasks and its own platform tasks. */
export function canSeeTask(user: UserRow, task: { ownerId: string | null; requester: string }): boolean {
  if (user.isAdmin) return true;
  return task.ownerId === null ? task.requester === user.id : task.ownerId === user.id;
}

/** The tasks a user may list (`canSeeTask` as SQL; undefined: all). */
export function taskScope(user: UserRow): SQL | undefined {
  if (user.isAdmin) return undefined;
  return sql`(${tasks.projectId} in (select ${projects.id} from ${projects} where ${projects.userId} = ${user.id})
    or (${tasks.projectId} is null and ${tasks.requester} = ${user.id}))`;
}

/** What may be done in the public media folder (settings' PUBLIC_DIR_FEATURES). */
export type PublicMediaFeature = 'mkDir' | 'upload' | 'modify' | 'delete';

/**
 * The public media folder as seen from a project (issue 11 §2): whether it shows, and what `user`
 * may do in it. The administrator, who keeps the folder, sees it whenever settings turn it on and
 * may do everything there; anyone else (the project's users: today its owning tenant) sees it when
 * the settings and the project both turn it on, and may do what both allow.
 */
export function publicMediaAccess(
  user: Pick<UserRow, 'isAdmin'>,
  platform: { publicDirEnable: boolean; publicDirFeature: readonly PublicMediaFeature[] },
  project: { mediaLibraryPublicDirEnable: boolean; mediaLibraryPublicDirFeature: readonly PublicMediaFeature[] },
): { visible: boolean; features: PublicMediaFeature[] } {
  if (!platform.publicDirEnable) return { visible: false, features: [] };
  if (user.isAdmin) return { visible: true, features: ['mkDir', 'upload', 'modify', 'delete'] };
  if (!project.mediaLibraryPublicDirEnable) return { visible: false, features: [] };
  return {
    visible: true,
    features: project.mediaLibraryPublicDirFeature.filter((feature) => platform.publicDirFeature.includes(feature)),
  };
}
