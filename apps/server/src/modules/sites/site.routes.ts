import type { IncomingMessage } from 'node:http';
import fastifyMultipart from '@fastify/multipart';
import {
  captchaResponse,
  dateOfDay,
  grantEndDay,
  type Language,
  localDate,
  MEDIA_LIMITS,
  pickLanguage,
  remainingDays,
  scopeFor,
  wirePassword,
} from '@gantry/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import type { FileStore } from '../../lib/file-store.js';
import { listQuerystring } from '../../lib/list-response.js';
import { streamFiles } from '../../lib/upload-receiver.js';
import { actorOf } from '../../plugins/auth.js';
import { SECURITY_HEADERS as HELMET_HEADERS } from '../../plugins/security-headers.js';
import { mediaUpload } from '../media/media.routes.js';
import type { MediaService } from '../media/media.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import { presentRecord, sendRecordPage } from '../tables/table.presenter.js';
import type { TableRow } from '../tables/table.repository.js';
import type { TableService, Writer } from '../tables/table.service.js';
import { BACK_OFFICE_SCRIPT } from './back-office-script.js';
import { PackageFileCache, packageSegments, serveFromPackage } from './front-site.js';
import type { SiteProject } from './site.repository.js';
import { type SiteCaller, type SiteService, siteProblem } from './site.service.js';
import { BACK_OFFICE_JS, backOfficePage, defaultFrontPage, problemPage, SITE_CSS, SITE_STYLES } from './site-pages.js';

/**
 * Requests that reached a site on its own origin (its port, or its domain): the project's own
 * content may then run unsandboxed, since it cannot reach the console's storage.
 */
export const ownOrigin = new WeakSet<IncomingMessage>();

/**
 * The front site's CSP on the console's origin (`/_p_{id}/`): the package runs sandboxed in an
 * opaque origin, so its scripts cannot read the console's stored tokens nor call the console's
 * API as its visitor. It submits no form anywhere (`form-action 'none'`): under the console's host a
 * tenant's page could otherwise show a sign-in form that posts what is typed to any address. A
 * package is static files, so no submission has a receiver of its own there; a form its script
 * handles (the submit event, then a call) still works, since the event fires before the submission is
 * checked. On the project's own port or domain: no sandbox, only framing by itself.
 */
const SANDBOXED_CSP =
  "sandbox allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-modals allow-downloads; form-action 'none'; frame-ancestors 'self'";
const OWN_ORIGIN_CSP = "frame-ancestors 'self'";
/**
 * What @fastify/helmet sets on every other answer (plugins/security-headers.ts), but the CSP and
 * CORP, which the front site sets itself.
 */
const SECURITY_HEADERS = { ...HELMET_HEADERS, 'cross-origin-resource-policy': 'same-origin' };
const SANDBOXED_HEADERS = {
  'content-security-policy': SANDBOXED_CSP,
  'cross-origin-resource-policy': 'cross-origin',
};
const OWN_ORIGIN_HEADERS = {
  'content-security-policy': OWN_ORIGIN_CSP,
  'cross-origin-resource-policy': 'cross-origin',
};
/** The back office's own pages and API: as strict as the console's. */
const BACK_OFFICE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: https: http:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

const mediaPath = z.string().max(MEDIA_LIMITS.pathMax * 2);
const idParams = z.object({ id: z.string().min(1).max(64) });
const itemParams = z.object({ id: z.string().min(1).max(64), item: z.string().min(1).max(64) });
const roleIds = z.array(z.string().min(1).max(64)).max(100);
const tableParams = z.object({ id: z.string().min(1).max(64), table: z.string().min(1).max(128) });
const recordParams = tableParams.extend({ record: z.string().min(1).max(128) });
const recordBody = z.record(z.string(), z.unknown());

/** A published table as the back office shows it: its fields and list settings (not its permissions or rules). */
function backOfficeTable(row: TableRow) {
  const published = row.doc.published;
  return {
    id: row.id,
    name: row.doc.name,
    title: row.doc.title ?? null,
    fields: published?.fields ?? [],
    list: published?.list ?? null,
  };
}

export interface SiteRouteDeps {
  sites: SiteService;
  settings: SettingsService;
  media: MediaService;
  store: FileStore;
  /** The table designer's tables: the back office reads and writes the records of published ones. */
  tables?: TableService;
  /** Small package files kept for a moment (the front site's files). */
  files?: PackageFileCache;
  /** Sign-in calls per client address per minute (the console's GANTRY_LOGIN_RATE_PER_MINUTE). */
  loginRatePerMinute?: number;
}

function languageOf(request: FastifyRequest): Language {
  return pickLanguage(request.headers['accept-language']);
}

function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization?.trim();
  return header ? header.replace(/^Bearer\s+/i, '') || undefined : undefined;
}

function html(reply: FastifyReply, status: number, body: string, csp: string) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('content-security-policy', csp)
    .header('vary', 'Accept-Language')
    .send(body);
}

/** What a back-office caller sees of its project: the name and the grant (with its end and remaining days). */
function projectSummary(project: SiteProject, now: Date) {
  const grant = project.grant;
  return {
    id: project.id,
    name: project.name,
    grant: grant
      ? {
          ...grant,
          endTime: dateOfDay(grantEndDay(grant)),
          remainingTime: remainingDays(grant, localDate(now)),
        }
      : null,
  };
}

/**
 * The project sites (issue 15): `/_p_{id}/…` the front site (the html package, or a default page),
 * `/admin/_p_{id}/…` the back office (a page, its script, and its calls under `/admin/_p_{id}/api/`).
 * A project that cannot be used now answers a page saying why, and its calls are refused (403).
 */
export function siteRoutes(deps: SiteRouteDeps) {
  const { sites, settings, media, store } = deps;
  const files = deps.files ?? new PackageFileCache();
  const throttled = { rateLimit: { max: deps.loginRatePerMinute ?? 30, timeWindow: '1 minute' } };
  return async (app: FastifyInstance) => {
    app.get(SITE_CSS, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('content-type', 'text/css; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(SITE_STYLES),
    );
    app.get(BACK_OFFICE_JS, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(BACK_OFFICE_SCRIPT),
    );

    // The front site.
    const front = async (request: FastifyRequest, reply: FastifyReply) => {
      const { id } = request.params as { id: string };
      reply.headers(SECURITY_HEADERS);
      const { project, problem } = await sites.cachedState(id);
      const own = ownOrigin.has(request.raw);
      if (problem || !project) {
        return html(
          reply,
          problem?.code === 'notFound' ? 404 : 403,
          problemPage(
            id,
            problem ?? { code: 'notFound', message: 'site.projectMissing', params: {} },
            languageOf(request),
          ),
          BACK_OFFICE_CSP,
        );
      }
      const rest = (request.params as { '*'?: string })['*'] ?? '';
      const segments = packageSegments(rest);
      if (!segments) throw new AppError('notFound');
      if (!own && rest === '' && !request.url.split('?')[0]?.endsWith('/')) {
        // `/_p_x` → `/_p_x/`: the package's relative addresses resolve inside the site.
        return reply.redirect(`/_p_${encodeURIComponent(id)}/`);
      }
      // The sandboxed page has an opaque origin: its own files must be loadable by it.
      reply.headers(own ? OWN_ORIGIN_HEADERS : SANDBOXED_HEADERS);
      const served = await serveFromPackage(store, files, id, segments, request, reply);
      if (served === 'served') return reply;
      if (served === 'notFound') throw new AppError('notFound');
      const s = await settings.get();
      const backOffice = own ? '/admin/' : `/admin/_p_${encodeURIComponent(id)}/`;
      return html(
        reply,
        200,
        defaultFrontPage(
          project,
          { logo: s.project_logo, background: s.project_backgroundImage },
          backOffice,
          languageOf(request),
        ),
        BACK_OFFICE_CSP,
      );
    };
    // Helmet builds its middlewares again for every request; the front site's files, the hottest
    // path, set the same headers from a constant instead (site.routes.test.ts compares them).
    const frontOptions = { schema: { hide: true }, helmet: false as const };
    app.get('/_p_:id', frontOptions, front);
    app.get('/_p_:id/*', frontOptions, front);

    // The back office's page.
    const backOffice = async (request: FastifyRequest, reply: FastifyReply) => {
      const { id } = request.params as { id: string };
      const language = languageOf(request);
      const project = await sites.project(id);
      const problem = siteProblem(project, sites.now());
      if (problem || !project) {
        return html(
          reply,
          problem?.code === 'notFound' ? 404 : 403,
          problemPage(id, problem ?? { code: 'notFound', message: 'site.projectMissing', params: {} }, language),
          BACK_OFFICE_CSP,
        );
      }
      const own = ownOrigin.has(request.raw);
      const s = await settings.get();
      return html(
        reply,
        200,
        backOfficePage(
          project,
          own ? '/admin' : `/admin/_p_${encodeURIComponent(id)}`,
          s.project_logo || s.logo,
          language,
        ),
        BACK_OFFICE_CSP,
      );
    };
    app.get('/admin/_p_:id', { schema: { hide: true } }, backOffice);
    app.get('/admin/_p_:id/*', { schema: { hide: true } }, backOffice);

    /** The signed-in caller of this project's back office (the project usable now); else 403 / 401. */
    const callerOf = async (request: FastifyRequest): Promise<{ caller: SiteCaller; project: SiteProject }> => {
      const { id } = request.params as { id: string };
      const project = await sites.usable(id);
      const token = tokenOf(request);
      const caller = token ? await sites.authenticate(id, token) : undefined;
      if (!caller) throw new AppError('unauthorized');
      return { caller, project };
    };

    // The back office's calls.
    await app.register(async (api) => {
      await api.register(fastifyMultipart);
      const typed = api.withTypeProvider<ZodTypeProvider>();
      api.addHook('onSend', async (_request, reply, payload) => {
        reply.header('cache-control', 'no-store');
        return payload;
      });

      typed.get('/admin/_p_:id/api/state', { schema: { hide: true, params: idParams } }, async (request) => {
        const project = await sites.usable(request.params.id);
        return { project: { id: project.id, name: project.name }, captcha: (await settings.get()).captcha };
      });

      typed.get(
        '/admin/_p_:id/api/captcha',
        {
          exposeHeadRoute: false,
          config: throttled,
          schema: {
            hide: true,
            params: idParams,
            querystring: z.object({
              username: z.string().max(64).default(''),
              owner: z.enum(['true', 'false']).optional(),
            }),
            response: { 200: captchaResponse },
          },
        },
        async (request) =>
          sites.captchaFor(request.params.id, request.query.username, request.query.owner === 'true', request.ip),
      );

      const session = z.object({ token: z.string(), expiresAt: z.string() });
      typed.post(
        '/admin/_p_:id/api/login',
        {
          config: throttled,
          schema: {
            hide: true,
            params: idParams,
            body: z.object({
              username: z.string().trim().min(1).max(64),
              password: wirePassword,
              code: z.string().max(16).optional(),
              codeId: z.string().max(64).optional(),
              owner: z.boolean().optional(),
            }),
            response: { 200: session },
          },
        },
        async (request) => {
          const opened = await sites.login(request.params.id, request.body, request.ip, request.language);
          return { token: opened.token, expiresAt: opened.expiresAt.toISOString() };
        },
      );

      typed.post(
        '/admin/_p_:id/api/sso',
        {
          config: throttled,
          schema: {
            hide: true,
            params: idParams,
            body: z.object({ code: z.string().min(1).max(128) }),
            response: { 200: session },
          },
        },
        async (request) => {
          const opened = await sites.exchangeSsoCode(request.params.id, request.body.code, request.ip);
          return { token: opened.token, expiresAt: opened.expiresAt.toISOString() };
        },
      );

      typed.post('/admin/_p_:id/api/logout', { schema: { hide: true, params: idParams } }, async (request) => {
        const { caller } = await callerOf(request);
        await sites.logout(caller);
        return { ok: true };
      });

      typed.get('/admin/_p_:id/api/me', { schema: { hide: true, params: idParams } }, async (request) => {
        const { caller, project } = await callerOf(request);
        return {
          kind: caller.kind,
          username: caller.username,
          name: caller.name,
          roles: caller.roles,
          manager: caller.kind === 'owner',
          project: projectSummary(project, sites.now()),
        };
      });

      // Project users and roles (the project administrator).
      const userBody = z.object({
        username: z.string().trim().min(1).max(64),
        name: z.string().trim().max(100).optional(),
        password: wirePassword,
        status: z.boolean().optional(),
        roles: roleIds.optional(),
      });
      typed.get('/admin/_p_:id/api/users', { schema: { hide: true, params: idParams } }, async (request) =>
        sites.listUsers((await callerOf(request)).caller),
      );
      typed.post(
        '/admin/_p_:id/api/users',
        { schema: { hide: true, params: idParams, body: userBody } },
        async (request) => sites.createUser((await callerOf(request)).caller, request.body),
      );
      typed.patch(
        '/admin/_p_:id/api/users/:item',
        {
          schema: {
            hide: true,
            params: itemParams,
            body: z.object({
              name: z.string().trim().max(100).optional(),
              password: wirePassword.optional(),
              status: z.boolean().optional(),
              roles: roleIds.optional(),
            }),
          },
        },
        async (request) => sites.updateUser((await callerOf(request)).caller, request.params.item, request.body),
      );
      typed.delete('/admin/_p_:id/api/users/:item', { schema: { hide: true, params: itemParams } }, async (request) => {
        await sites.deleteUser((await callerOf(request)).caller, request.params.item);
        return { ok: true };
      });
      const roleBody = z.object({ name: z.string().trim().min(1).max(100), remarks: z.string().max(500).optional() });
      typed.get('/admin/_p_:id/api/roles', { schema: { hide: true, params: idParams } }, async (request) =>
        sites.listRoles((await callerOf(request)).caller),
      );
      typed.post(
        '/admin/_p_:id/api/roles',
        { schema: { hide: true, params: idParams, body: roleBody } },
        async (request) => sites.createRole((await callerOf(request)).caller, request.body),
      );
      typed.patch(
        '/admin/_p_:id/api/roles/:item',
        { schema: { hide: true, params: itemParams, body: roleBody.partial() } },
        async (request) => sites.updateRole((await callerOf(request)).caller, request.params.item, request.body),
      );
      typed.delete('/admin/_p_:id/api/roles/:item', { schema: { hide: true, params: itemParams } }, async (request) => {
        await sites.deleteRole((await callerOf(request)).caller, request.params.item);
        return { ok: true };
      });

      // The media library, with the public folder's permissions for project users.
      const mediaOf = async (request: FastifyRequest) => {
        const { caller, project } = await callerOf(request);
        return sites.mediaContext(caller, project);
      };
      typed.get(
        '/admin/_p_:id/api/media/tree',
        { schema: { hide: true, params: idParams, querystring: z.object({ path: mediaPath.optional() }) } },
        async (request, reply) => {
          const answer = await media.tree(await mediaOf(request), request.query.path ?? '', true);
          if (answer.truncated) reply.header('x-tree-truncated', 'true');
          return answer.nodes;
        },
      );
      typed.post(
        '/admin/_p_:id/api/media/dir',
        { schema: { hide: true, params: idParams, body: z.object({ path: mediaPath }) } },
        async (request) => media.mkdir(await mediaOf(request), request.body.path),
      );
      typed.post(
        '/admin/_p_:id/api/media/rename',
        {
          schema: {
            hide: true,
            params: idParams,
            body: z.object({ path: mediaPath, name: z.string().max(MEDIA_LIMITS.nameBytesMax * 2) }),
          },
        },
        async (request) => media.rename(await mediaOf(request), request.body.path, request.body.name),
      );
      typed.delete(
        '/admin/_p_:id/api/media',
        { schema: { hide: true, params: idParams, querystring: z.object({ path: mediaPath }) } },
        async (request) => {
          await media.remove(await mediaOf(request), request.query.path);
          return { path: request.query.path };
        },
      );
      typed.post(
        '/admin/_p_:id/api/media/upload',
        {
          config: { upload: mediaUpload(media) },
          schema: {
            hide: true,
            params: idParams,
            querystring: z.object({ path: mediaPath.optional(), overwrite: z.enum(['true', 'false']).optional() }),
          },
        },
        async (request) => {
          const where = await mediaOf(request);
          const folder = media.uploadFolder(where, request.query.path ?? '');
          return streamFiles(request, (name, file) =>
            media.upload(where, folder, name, file, request.query.overwrite === 'true'),
          );
        },
      );
    });

    // Tables (published ones): the records, under the table's record permissions for a project user.
    const tables = deps.tables;
    if (tables) {
      await app.register(async (api) => {
        const typed = api.withTypeProvider<ZodTypeProvider>();
        api.addHook('onSend', async (_request, reply, payload) => {
          reply.header('cache-control', 'no-store');
          return payload;
        });
        /**
         * The project's tables and who writes: the project administrator sees every record; a project
         * user is a member whom the table's view / add / manage rules bound (the console's "view as").
         */
        const tablesOf = async (request: FastifyRequest) => {
          const { caller, project } = await callerOf(request);
          const target = { projectId: project.id, collection: 'table' as const };
          let as: Writer = { id: caller.subject };
          if (caller.kind === 'user') {
            const owner = await sites.consoleAccount(project.ownerId);
            if (!owner) throw new AppError('notFound');
            as = await tables.writer(target, owner, caller.subject);
          }
          return { target, as };
        };
        typed.get('/admin/_p_:id/api/tables', { schema: { hide: true, params: idParams } }, async (request) => {
          const { target, as } = await tablesOf(request);
          const published = (await tables.listTables(target)).filter((row) => row.doc.published);
          const member = as.member;
          return published
            .filter((row) => !member || scopeFor(row.doc.published?.permissions.view ?? [], member.subject) !== 'none')
            .map(backOfficeTable);
        });
        typed.get(
          '/admin/_p_:id/api/tables/:table/records',
          { schema: { hide: true, params: tableParams, querystring: listQuerystring } },
          async (request, reply) => {
            const { target, as } = await tablesOf(request);
            return sendRecordPage(
              reply,
              await tables.listRecords(target, request.params.table, request.query.query, as),
            );
          },
        );
        typed.post(
          '/admin/_p_:id/api/tables/:table/records',
          { schema: { hide: true, params: tableParams, body: recordBody } },
          async (request) => {
            const { target, as } = await tablesOf(request);
            return presentRecord(await tables.createRecord(target, request.params.table, request.body, as));
          },
        );
        typed.get(
          '/admin/_p_:id/api/tables/:table/records/:record',
          { schema: { hide: true, params: recordParams } },
          async (request) => {
            const { target, as } = await tablesOf(request);
            return presentRecord(await tables.getRecord(target, request.params.table, request.params.record, as));
          },
        );
        typed.patch(
          '/admin/_p_:id/api/tables/:table/records/:record',
          { schema: { hide: true, params: recordParams, body: recordBody } },
          async (request) => {
            const { target, as } = await tablesOf(request);
            const { table, record } = request.params;
            return presentRecord(await tables.updateRecord(target, table, record, request.body, as, false));
          },
        );
        typed.delete(
          '/admin/_p_:id/api/tables/:table/records/:record',
          { schema: { hide: true, params: recordParams } },
          async (request) => {
            const { target, as } = await tablesOf(request);
            await tables.deleteRecord(target, request.params.table, request.params.record, as);
            return { id: request.params.record };
          },
        );
      });
    }

    // The console side of single sign-on: the project's owner asks for a one-time code.
    app.post(
      '/portal/rest/spm/project/:id/sso',
      { config: { action: 'project.write' }, schema: { hide: true, params: idParams } },
      async (request) => sites.issueSsoCode(actorOf(request).user, (request.params as { id: string }).id),
    );
  };
}
