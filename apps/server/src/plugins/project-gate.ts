import { isRecord } from '@gantry/shared';
import type { FastifyInstance, FastifyRequest, preHandlerHookHandler, preValidationHookHandler } from 'fastify';
import { z } from 'zod';
import { AppError } from '../lib/app-error.js';
import type { Invalidation } from '../lib/invalidation-bus.js';
import { ReadCache } from '../lib/read-cache.js';
import { type RestoringProjects, refusedWhileRestoring } from '../modules/db-backups/restore-guard.js';
import type { DocumentRepository, ProjectAccess } from '../modules/documents/document.repository.js';
import type { UserRow } from '../modules/users/user.repository.js';
import { type Action, NO_SESSION_NEEDED, reachableProject } from '../policy/policy.js';

/**
 * The project gate (issue 31 §1): the one place a request's project is read, loaded, checked for the
 * caller and put on the request. A route declares what it needs of its project (`config.project`):
 * - `'read'`: the project must exist and be the caller's (the policy's owner rule); anyone else's,
 *   or none, is 404 `notFound`, the same everywhere (no probing);
 * - `'write'`: as `'read'`, and the call changes the project's own data (documents, tables, media, a
 *   restore): a disabled project (or one of a disabled tenant) is refused, 409 `projectReadOnly`;
 * - `'maybe'`: as `'read'` when the call names a project; without one the route works across the
 *   caller's projects (the task manager's list);
 * - `'none'`: under a project prefix, but about no one project (the FTP settings).
 * The project is named by the `x-request-project` header, else (a browser link) `x-request-project`
 * or `projectId` in the query; `config.projectFrom` names the one place a route takes it from instead.
 * A project whose database restore runs also refuses the calls `refusedWhileRestoring` names (423).
 * Every route under a project prefix must declare its need, or the server does not start.
 */

/** The header naming a request's project (the only place the name is spelt; the OpenAPI text too). */
export const PROJECT_HEADER = 'x-request-project';
/** The header as route schemas declare it (for validation and the API document). */
export const projectHeaders = z.looseObject({ [PROJECT_HEADER]: z.string().max(64).optional() });
/** The project in a link's query (a browser link cannot send a header). */
export const projectQuery = {
  [PROJECT_HEADER]: z.string().max(64).optional(),
  projectId: z.string().max(64).optional(),
};
/** Longest project id the gate looks up (longer ones are left to the route's validation: 400). */
const ID_MAX = 64;

/**
 * Route prefixes whose every route is about one project's data: each declares `config.project`.
 * (Project records themselves, `spm/project/…`, keep their own checks: reachableProject.)
 */
export const PROJECT_PREFIXES: readonly string[] = [
  // The data layer's collections (`core/license/…` and other fixed `core/` names are no project's).
  '/portal/rest/core/:',
  '/portal/rest/spm/tables',
  '/portal/rest/spm/proxy/core/mediaLibrary',
  '/portal/rest/spm/proxy/core/backup',
  '/portal/rest/spm/proxy/core/taskmanager',
  '/portal/rest/db-backup',
];

export type ProjectNeed = 'read' | 'write' | 'maybe' | 'none';
/** Where a route names its project instead of the header (`config.projectFrom`). */
export type ProjectSource = 'params.id' | 'query.projectId';

/** The project a request works in, as the gate found it. */
export interface GatedProject {
  id: string;
  ownerId: string;
  name: string;
  /** The project and its tenant are enabled: its data may change. */
  enabled: boolean;
}

/** A route the gate guards, as declared (the isolation matrix is generated from these). */
export interface GatedRoute {
  method: string;
  url: string;
  action: string;
  need: Exclude<ProjectNeed, 'none'>;
  from: ProjectSource | undefined;
}

/** How long a read trusts a project's cached owner and state (writes always read them). */
const ACCESS_CACHE_MS = 5_000;
const ACCESS_CACHE_MAX = 10_000;

/** The project the gate put on the request; a route without `config.project` has none (a bug). */
export function gatedProject(request: FastifyRequest): GatedProject {
  const project = request.project;
  if (!project) throw new Error(`${request.method} ${request.url} reads a project the gate did not resolve`);
  return project;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The project a request names: the header, else the query; or the one place the route names. */
export function projectIdOf(request: FastifyRequest, from?: ProjectSource): string | undefined {
  if (from === 'params.id') return nonEmpty(isRecord(request.params) ? request.params.id : undefined);
  const query = isRecord(request.query) ? request.query : undefined;
  if (from === 'query.projectId') return nonEmpty(query?.projectId);
  const header = nonEmpty(request.headers[PROJECT_HEADER]);
  if (header) return header;
  return nonEmpty(query?.[PROJECT_HEADER]) ?? nonEmpty(query?.projectId);
}

/** A disabled project (or one of a disabled tenant) keeps its data as it is. */
function assertWritable(project: GatedProject): void {
  if (!project.enabled) throw new AppError('projectReadOnly');
}

export class ProjectGate {
  private readonly access: ReadCache<ProjectAccess>;
  private readonly guarded: GatedRoute[] = [];
  private readonly watchers = new Set<(request: FastifyRequest, project: GatedProject) => void>();

  constructor(
    private readonly deps: {
      projects: Pick<DocumentRepository, 'projectAccess'>;
      restoringProjects: Pick<RestoringProjects, 'assertOpen'>;
      now: () => number;
    },
  ) {
    this.access = new ReadCache(ACCESS_CACHE_MS, ACCESS_CACHE_MAX, deps.now);
  }

  /** The routes the gate guards, as they were added. */
  get routes(): readonly GatedRoute[] {
    return this.guarded;
  }

  /**
   * A change announced on the invalidation bus: a project changed (its owner, state or removal, all
   * announced as site changes), a user changed (a tenant disabled or removed), or anything.
   */
  apply(change: Invalidation): void {
    if (change.kind === 'site') this.access.forget(change.projectId);
    else if (change.kind === 'user' || change.kind === 'all') this.access.forget();
  }

  /** Tells `listener` of every request the gate let through (tests: the isolation matrix). */
  watch(listener: (request: FastifyRequest, project: GatedProject) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  /**
   * Project `projectId` for `user`: not found unless the policy lets the user reach it; for a write,
   * read afresh and refused when disabled. Also what the websocket calls.
   */
  async resolve(user: UserRow, projectId: string, need: 'read' | 'write'): Promise<GatedProject> {
    const project = await this.reach(user, projectId, need === 'write');
    if (need === 'write') assertWritable(project);
    return project;
  }

  private async reach(user: UserRow, projectId: string, fresh: boolean): Promise<GatedProject> {
    const found = await (fresh
      ? this.deps.projects.projectAccess(projectId)
      : this.access.get(projectId, () => this.deps.projects.projectAccess(projectId)));
    const access = reachableProject(user, found);
    return { id: projectId, ownerId: access.ownerId, name: access.name, enabled: access.enabled };
  }

  /**
   * The start-up check of every route, and the hooks of the routes that name a project (the others
   * run none: issue 33), which Fastify runs after the hooks of every request (the session's among
   * them). Registered after `registerUploadRoutes`, whose length check the gate's hook goes before,
   * and before any route is added.
   */
  register(app: FastifyInstance): void {
    app.decorateRequest('project', undefined);

    app.addHook('onRoute', (route) => {
      const config = route.config;
      const need = config?.project;
      const action = config?.action;
      const where = `${route.method} ${route.url}`;
      if (need === undefined) {
        if (PROJECT_PREFIXES.some((prefix) => route.url.startsWith(prefix))) {
          throw new Error(`Route ${where} is under a project prefix and declares no config.project`);
        }
        return;
      }
      if (need === 'none') return;
      if (!action || NO_SESSION_NEEDED.has(action)) {
        throw new Error(`Route ${where} declares a project but no action that needs a session`);
      }
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        this.guarded.push({ method, url: route.url, action, need, from: config?.projectFrom });
      }
      // First of the route's own hooks, after the session and the policy (registerAuth's, which every
      // route runs), before the body and the header are validated: another tenant's project is 404
      // whatever the request carries.
      const from = config?.projectFrom;
      const gate: preValidationHookHandler = (request, _reply, done) => {
        const projectId = projectIdOf(request, from);
        // None named: the header is missing; a route naming it elsewhere has its validation answer.
        if (projectId === undefined) {
          return done(need === 'maybe' || from ? undefined : new AppError('projectHeaderMissing'));
        }
        // Too long to be an id: never looked up; the route's validation answers (400), or, where the
        // project is optional (no header schema), no such project (404), never "all of them".
        if (projectId.length > ID_MAX) return done(need === 'maybe' ? new AppError('notFound') : undefined);
        const user = request.auth?.user;
        if (!user) return done(new AppError('unauthorized'));
        this.pass(request, user, projectId, action, need === 'write' ? 'write' : 'read').then(
          () => done(),
          (error: Error) => done(error),
        );
      };
      route.preValidation = [gate, ...[route.preValidation ?? []].flat()];
      if (need === 'maybe') return;
      // A request that got past validation without its project (an id too long to look up) goes no further.
      const resolved: preHandlerHookHandler = (request, _reply, done) =>
        done(request.project ? undefined : new AppError('notFound'));
      route.preHandler = [resolved, ...[route.preHandler ?? []].flat()];
    });
  }

  private async pass(
    request: FastifyRequest,
    user: UserRow,
    projectId: string,
    action: Action,
    need: 'read' | 'write',
  ) {
    const project = await this.reach(user, projectId, need === 'write');
    if (refusedWhileRestoring(action)) await this.deps.restoringProjects.assertOpen(projectId);
    if (need === 'write') assertWritable(project);
    request.project = project;
    for (const watcher of this.watchers) watcher(request, project);
  }
}
