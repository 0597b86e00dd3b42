import { createHash, randomBytes } from 'node:crypto';
import {
  type CaptchaResponse,
  dateOfDay,
  grantEndDay,
  type Language,
  localDate,
  type MessageKey,
  TOKEN_BYTES,
} from '@gantry/shared';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { ownsProject, publicMediaAccess, reachableProject } from '../../policy/policy.js';
import type { CaptchaService } from '../auth/captcha.service.js';
import type { LoginAttemptRepository } from '../auth/login-attempt.repository.js';
import { LoginGuard } from '../auth/login-guard.js';
import type { PasswordHasher } from '../auth/password-hasher.js';
import type { MediaContext } from '../media/media.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UserRow } from '../users/user.repository.js';
import type { ProjectDocument, SiteProject, SiteRepository } from './site.repository.js';

/** How long a project's state is kept for the front site's files (a change shows within this). */
export const SITE_STATE_CACHE_MS = 2_000;
/** A single sign-on code lives this long, and is used once. */
export const SSO_CODE_TTL_MS = 60_000;
/** Project users and roles listed at most. */
export const SITE_LIST_MAX = 10_000;
const USERNAME = /^[A-Za-z0-9_.@-]{1,64}$/;
const ARGON2 = /^\$argon2/;

const digest = (value: string) => createHash('sha256').update(value).digest('hex');
const newToken = () => randomBytes(TOKEN_BYTES).toString('base64url');

/** Why a project's sites cannot be used now (console.md §4), with what the message needs. */
export interface SiteProblem {
  code:
    | 'notFound'
    | 'siteProjectDisabled'
    | 'siteTenantDisabled'
    | 'siteGrantNotStarted'
    | 'siteGrantEnded'
    | 'siteGrantMissing';
  message: MessageKey;
  params: Record<string, string>;
}

export function siteProblem(project: SiteProject | undefined, now: Date): SiteProblem | undefined {
  if (!project) return { code: 'notFound', message: 'site.projectMissing', params: {} };
  if (!project.ownerOn) return { code: 'siteTenantDisabled', message: 'site.tenantDisabled', params: {} };
  if (!project.projectOn) return { code: 'siteProjectDisabled', message: 'site.projectDisabled', params: {} };
  const grant = project.grant;
  if (!grant?.startTime || !grant.validityPeriod)
    return { code: 'siteGrantMissing', message: 'site.grantMissing', params: {} };
  const today = localDate(now);
  if (today < grant.startTime) {
    return { code: 'siteGrantNotStarted', message: 'site.grantNotStarted', params: { date: grant.startTime } };
  }
  const end = grantEndDay(grant);
  if (today >= dateOfDay(end)) {
    return { code: 'siteGrantEnded', message: 'site.grantEnded', params: { date: dateOfDay(end - 1) } };
  }
  return undefined;
}

/** A signed-in caller of a back office. */
export interface SiteCaller {
  projectId: string;
  kind: 'user' | 'owner';
  /** The project user's document id, or the console account's id. */
  subject: string;
  username: string;
  name: string;
  roles: string[];
  /** The console account behind an owner session. */
  owner?: UserRow;
  tokenHash: string;
}

export interface ProjectUserView {
  id: string;
  username: string;
  name: string;
  status: boolean;
  roles: string[];
  createTime: string;
  updateTime: string;
}

export interface RoleView {
  id: string;
  name: string;
  remarks: string;
  createTime: string;
}

export interface SiteDeps {
  db: Database;
  repo: SiteRepository;
  attempts: LoginAttemptRepository;
  captcha: CaptchaService;
  settings: SettingsService;
  hasher: PasswordHasher;
  clock: Clock;
  /** Whether the project's grant (and the platform) has the `Oauth` feature. */
  ssoAllowed: (project: SiteProject) => Promise<boolean>;
}

function userView(row: ProjectDocument): ProjectUserView {
  const doc = row.doc;
  return {
    id: row.id,
    username: typeof doc.username === 'string' ? doc.username : row.id,
    name: typeof doc.name === 'string' ? doc.name : '',
    status: doc.status !== false,
    roles: Array.isArray(doc.roles) ? doc.roles.filter((r): r is string => typeof r === 'string') : [],
    createTime: row.createTime.toISOString(),
    updateTime: row.updateTime.toISOString(),
  };
}

function roleView(row: ProjectDocument): RoleView {
  return {
    id: row.id,
    name: typeof row.doc.name === 'string' ? row.doc.name : row.id,
    remarks: typeof row.doc.remarks === 'string' ? row.doc.remarks : '',
    createTime: row.createTime.toISOString(),
  };
}

/**
 * The project sites (issue 15): each project's state as its sites see it, the back office's
 * sign-in (project users, or the project administrator with the console account), its sessions
 * (a table of their own: a console token is not a project token), single sign-on codes, and the
 * project users and roles the project administrator manages.
 */
export class SiteService {
  private readonly states = new Map<
    string,
    { at: number; project: SiteProject | undefined; problem: SiteProblem | undefined }
  >();

  private readonly guard: LoginGuard;

  constructor(private readonly deps: SiteDeps) {
    this.guard = new LoginGuard(deps);
  }

  /**
   * The project as its front site serves it, with what keeps it from being used now: read at most
   * every SITE_STATE_CACHE_MS (a change made here or announced on the bus is forgotten at once).
   */
  async cachedState(
    projectId: string,
  ): Promise<{ project: SiteProject | undefined; problem: SiteProblem | undefined }> {
    const now = performance.now();
    const cached = this.states.get(projectId);
    if (cached && now - cached.at < SITE_STATE_CACHE_MS) return cached;
    const project = await this.deps.repo.project(projectId);
    if (this.states.size > 10_000) this.states.clear();
    const state = { at: now, project, problem: siteProblem(project, this.deps.clock()) };
    this.states.set(projectId, state);
    return state;
  }

  /** Forgets a project's cached state (its owner changed it in this process). */
  forget(projectId: string): void {
    this.states.delete(projectId);
  }

  /** Forgets every cached state (the bus may have missed changes). */
  forgetAll(): void {
    this.states.clear();
  }

  project(projectId: string): Promise<SiteProject | undefined> {
    return this.deps.repo.project(projectId);
  }

  now(): Date {
    return this.deps.clock();
  }

  /** A console account (the owner of a project, for the table designer's "view as" of its users). */
  consoleAccount(id: string): Promise<UserRow | undefined> {
    return this.deps.repo.consoleUser(id);
  }

  /** The project, usable now; else the error of its state (calls are refused). */
  async usable(projectId: string): Promise<SiteProject> {
    const project = await this.deps.repo.project(projectId);
    const problem = siteProblem(project, this.deps.clock());
    if (problem || !project) {
      throw new AppError(problem?.code ?? 'notFound', { params: problem?.params ?? {} });
    }
    return project;
  }

  private accountKey(projectId: string, username: string, owner: boolean) {
    return `site:${projectId}:${owner ? 'owner' : 'user'}:${username}`;
  }

  async captchaFor(projectId: string, username: string, owner: boolean, ip: string): Promise<CaptchaResponse> {
    await this.usable(projectId);
    return this.guard.captchaFor(this.accountKey(projectId, username, owner), ip);
  }

  /**
   * Sign-in to a back office, with the console's rules: the verification code policy, the lockout
   * (settings.errorLogin) counted per project and account, argon2id. `owner`: the console account
   * of the project administrator (the owning tenant or the administrator) instead of a project user.
   */
  async login(
    projectId: string,
    body: {
      username: string;
      password: string;
      code?: string | undefined;
      codeId?: string | undefined;
      owner?: boolean | undefined;
    },
    ip: string,
    language: Language,
  ): Promise<{ token: string; expiresAt: Date }> {
    const { deps } = this;
    const project = await this.usable(projectId);
    const owner = body.owner === true;
    const key = this.accountKey(projectId, body.username, owner);
    const account = await this.guard.attempt(key, ip, body, language, async () => {
      let subject: string | undefined;
      let stored: string | undefined;
      let enabled = false;
      if (owner) {
        const found = await deps.repo.consoleUser(body.username);
        if (found && ownsProject(found, project.ownerId)) {
          subject = found.id;
          stored = found.passwordHash ?? undefined;
          enabled = found.status;
        }
      } else {
        const user = await deps.repo.userByName(projectId, body.username);
        if (user) {
          subject = user.id;
          const hash = user.doc.password;
          stored = typeof hash === 'string' && ARGON2.test(hash) ? hash : undefined;
          enabled = user.doc.status !== false;
        }
      }
      const valid = await deps.hasher.verify(stored, body.password);
      return subject && valid ? { subject, enabled } : undefined;
    });
    if (!account.enabled) throw new AppError('accountDisabled', { fields: { user: 'auth.disabled' } });
    return this.openSession(projectId, owner ? 'owner' : 'user', account.subject, ip);
  }

  private async openSession(projectId: string, kind: 'user' | 'owner', subject: string, ip: string) {
    const settings = await this.deps.settings.get();
    const token = newToken();
    const expiresAt = new Date(this.deps.clock().getTime() + (settings.loginDuration.time ?? 86_400) * 1000);
    await this.deps.repo.createSession({ tokenHash: digest(token), projectId, kind, subject, expiresAt, ip });
    return { token, expiresAt };
  }

  /** A one-time code for the console account `user` to open the back office of `projectId` (hasSSO). */
  async issueSsoCode(user: UserRow, projectId: string): Promise<{ code: string; expiresAt: string }> {
    const project = reachableProject(user, await this.deps.repo.project(projectId));
    const problem = siteProblem(project, this.deps.clock());
    if (problem) throw new AppError(problem.code, { params: problem.params });
    if (!project.hasSso || !(await this.deps.ssoAllowed(project))) throw new AppError('siteSsoOff');
    const code = newToken();
    const expiresAt = new Date(this.deps.clock().getTime() + SSO_CODE_TTL_MS);
    await this.deps.repo.createCode({ codeHash: digest(code), projectId, userId: user.id, expiresAt });
    return { code, expiresAt: expiresAt.toISOString() };
  }

  /** Exchanges a sign-on code (once, before it expires, for its own project) for a back-office session. */
  async exchangeSsoCode(projectId: string, code: string, ip: string) {
    const project = await this.usable(projectId);
    const taken = await this.deps.repo.takeCode(digest(code));
    if (!taken || taken.projectId !== projectId || taken.expiresAt.getTime() <= this.deps.clock().getTime()) {
      throw new AppError('siteSsoCodeInvalid');
    }
    const account = await this.deps.repo.consoleUser(taken.userId);
    if (!account || !ownsProject(account, project.ownerId)) throw new AppError('siteSsoCodeInvalid');
    if (!project.hasSso || !(await this.deps.ssoAllowed(project))) throw new AppError('siteSsoOff');
    return this.openSession(projectId, 'owner', account.id, ip);
  }

  /**
   * The caller behind a back-office token of `projectId`: a token of another project, a console
   * token, an ended session, a disabled or removed user → undefined (401).
   */
  async authenticate(projectId: string, token: string): Promise<SiteCaller | undefined> {
    const tokenHash = digest(token);
    const session = await this.deps.repo.session(tokenHash, this.deps.clock());
    if (!session || session.projectId !== projectId) return undefined;
    if (session.kind === 'owner') {
      const account = await this.deps.repo.consoleUser(session.subject);
      const project = await this.deps.repo.project(projectId);
      if (!account || !project || !ownsProject(account, project.ownerId)) return undefined;
      return {
        projectId,
        kind: 'owner',
        subject: account.id,
        username: account.id,
        name: account.name,
        roles: [],
        owner: account,
        tokenHash,
      };
    }
    const user = await this.deps.repo.document(projectId, 'user', session.subject);
    if (!user || user.doc.status === false) return undefined;
    const view = userView(user);
    return {
      projectId,
      kind: 'user',
      subject: user.id,
      username: view.username,
      name: view.name,
      roles: view.roles,
      tokenHash,
    };
  }

  logout(caller: SiteCaller): Promise<void> {
    return this.deps.repo.deleteSession(caller.tokenHash);
  }

  cleanUp(): Promise<void> {
    return this.deps.repo.deleteExpired(this.deps.clock());
  }

  /** The media library as a back-office caller uses it: a project user has the public folder's permissions. */
  async mediaContext(caller: SiteCaller, project: SiteProject): Promise<MediaContext> {
    const { mediaLibrary } = await this.deps.settings.get();
    const access = publicMediaAccess(caller.owner ?? { isAdmin: false }, mediaLibrary, project.advanced);
    return { projectId: project.id, enabled: true, publicVisible: access.visible, publicFeatures: access.features };
  }

  private ownerOnly(caller: SiteCaller): void {
    if (caller.kind !== 'owner') throw new AppError('siteOwnerOnly');
  }

  // Project users.

  async listUsers(caller: SiteCaller): Promise<ProjectUserView[]> {
    this.ownerOnly(caller);
    return (await this.deps.repo.documents(caller.projectId, 'user', SITE_LIST_MAX)).map(userView);
  }

  private async checkRoles(projectId: string, roles: string[]): Promise<void> {
    for (const role of roles) {
      if (!(await this.deps.repo.document(projectId, 'role', role)))
        throw new AppError('siteRoleUnknown', { params: { role } });
    }
  }

  /** Enabling one more user must stay within the grant's userCount (checked under the project's lock). */
  private async assertUserRoom(tx: Database, project: SiteProject): Promise<void> {
    await this.deps.repo.lockProject(tx, project.id);
    const max = project.grant?.userCount ?? 0;
    if ((await this.deps.repo.enabledUsers(project.id, tx)) >= max) {
      throw new AppError('siteUserLimit', { params: { max } });
    }
  }

  async createUser(
    caller: SiteCaller,
    body: {
      username: string;
      name?: string | undefined;
      password: string;
      status?: boolean | undefined;
      roles?: string[] | undefined;
    },
  ): Promise<ProjectUserView> {
    this.ownerOnly(caller);
    const project = await this.usable(caller.projectId);
    if (!USERNAME.test(body.username)) throw new AppError('validation', { fields: { username: 'error.validation' } });
    const roles = [...new Set(body.roles ?? [])];
    await this.checkRoles(project.id, roles);
    const hash = await this.deps.hasher.hash(body.password);
    const status = body.status !== false;
    const id = randomBytes(12).toString('hex');
    const now = this.deps.clock();
    await this.deps.db.transaction(async (tx) => {
      if (status) await this.assertUserRoom(tx, project);
      else await this.deps.repo.lockProject(tx, project.id);
      if (await this.deps.repo.userByName(project.id, body.username, tx)) {
        throw new AppError('siteUsernameTaken', { params: { username: body.username } });
      }
      const doc = { username: body.username, name: body.name ?? body.username, password: hash, status, roles };
      await this.deps.repo.insertDocument(tx, project.id, 'user', id, doc, now);
    });
    return this.user(project.id, id);
  }

  private async user(projectId: string, id: string): Promise<ProjectUserView> {
    const row = await this.deps.repo.document(projectId, 'user', id);
    if (!row) throw new AppError('notFound');
    return userView(row);
  }

  async updateUser(
    caller: SiteCaller,
    id: string,
    body: {
      name?: string | undefined;
      password?: string | undefined;
      status?: boolean | undefined;
      roles?: string[] | undefined;
    },
  ): Promise<ProjectUserView> {
    this.ownerOnly(caller);
    const project = await this.usable(caller.projectId);
    if (body.roles) await this.checkRoles(project.id, body.roles);
    const hash = body.password ? await this.deps.hasher.hash(body.password) : undefined;
    let endSessions = false;
    await this.deps.db.transaction(async (tx) => {
      const current = await this.deps.repo.document(project.id, 'user', id, tx);
      if (!current) throw new AppError('notFound');
      const wasOn = current.doc.status !== false;
      const on = body.status ?? wasOn;
      if (on && !wasOn) await this.assertUserRoom(tx, project);
      const doc = {
        ...current.doc,
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(hash ? { password: hash } : {}),
        ...(body.roles ? { roles: [...new Set(body.roles)] } : {}),
        status: on,
      };
      await this.deps.repo.replaceDocument(tx, project.id, 'user', id, doc, this.deps.clock());
      endSessions = Boolean(hash) || !on;
      if (endSessions) await this.deps.repo.deleteSessionsOf(project.id, 'user', id, tx);
    });
    return this.user(project.id, id);
  }

  async deleteUser(caller: SiteCaller, id: string): Promise<void> {
    this.ownerOnly(caller);
    await this.usable(caller.projectId);
    if (!(await this.deps.repo.deleteDocument(caller.projectId, 'user', id))) throw new AppError('notFound');
    await this.deps.repo.deleteSessionsOf(caller.projectId, 'user', id);
  }

  // Roles.

  async listRoles(caller: SiteCaller): Promise<RoleView[]> {
    return (await this.deps.repo.documents(caller.projectId, 'role', SITE_LIST_MAX)).map(roleView);
  }

  async createRole(caller: SiteCaller, body: { name: string; remarks?: string | undefined }): Promise<RoleView> {
    this.ownerOnly(caller);
    const project = await this.usable(caller.projectId);
    const id = randomBytes(12).toString('hex');
    await this.deps.repo.insertDocument(
      this.deps.db,
      project.id,
      'role',
      id,
      { name: body.name, remarks: body.remarks ?? '' },
      this.deps.clock(),
    );
    const row = await this.deps.repo.document(project.id, 'role', id);
    if (!row) throw new AppError('notFound');
    return roleView(row);
  }

  async updateRole(caller: SiteCaller, id: string, body: { name?: string | undefined; remarks?: string | undefined }) {
    this.ownerOnly(caller);
    const project = await this.usable(caller.projectId);
    const current = await this.deps.repo.document(project.id, 'role', id);
    if (!current) throw new AppError('notFound');
    const doc = {
      ...current.doc,
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.remarks !== undefined ? { remarks: body.remarks } : {}),
    };
    await this.deps.repo.replaceDocument(this.deps.db, project.id, 'role', id, doc, this.deps.clock());
    return roleView({ ...current, doc });
  }

  async deleteRole(caller: SiteCaller, id: string): Promise<void> {
    this.ownerOnly(caller);
    await this.usable(caller.projectId);
    const using = await this.deps.repo.usersWithRole(caller.projectId, id);
    if (using > 0) throw new AppError('siteRoleInUse', { params: { count: using } });
    if (!(await this.deps.repo.deleteDocument(caller.projectId, 'role', id))) throw new AppError('notFound');
  }
}
