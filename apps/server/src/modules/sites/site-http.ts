import type { IncomingMessage } from 'node:http';
import { type Language, siteContent, sitePageParams } from '@gantry/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FileStore } from '../../lib/file-store.js';
import type { MediaService } from '../media/media.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { TableService } from '../tables/table.service.js';
import type { PackageFileCache } from './front-site.js';
import type { SiteProblem, SiteService } from './site.service.js';
import { problemPage } from './site-pages.js';

/**
 * What the site surfaces share (front-site, back-office-page, site-sign-on, back-office-api and
 * back-office-tables `.routes.ts`): their dependencies, the origin a request reached, the language
 * of a page, and HTML answers.
 */

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

/**
 * Requests that reached a site on its own origin (its port, or its domain): the project's own
 * content may then run unsandboxed, since it cannot reach the console's storage.
 */
export const ownOrigin = new WeakSet<IncomingMessage>();

/** The back office's own pages and API (and the pages saying why a site is closed): as strict as the console's. */
const BACK_OFFICE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: https: http:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/** `?lang=` values a site page takes: a language id, or its short form. */
const LANG_PARAM: Record<string, Language> = { en: 'en', zh: 'zh_Hans', zh_Hans: 'zh_Hans', 'zh-Hans': 'zh_Hans' };

/**
 * The language of a site page (issue 32): `?lang=` (en, zh, zh_Hans) when given, else the system
 * language of the settings, as the console's, so a project's sites speak as its platform does.
 */
export async function languageOf(request: FastifyRequest, settings: Pick<SettingsService, 'get'>): Promise<Language> {
  const asked = new URL(request.url, 'http://site').searchParams.get('lang');
  const chosen = asked === null ? undefined : LANG_PARAM[asked];
  return chosen ?? (await settings.get()).language;
}

/** An HTML page, asked for each time, in the site's language. */
function html(reply: FastifyReply, status: number, body: string, csp: string): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('content-security-policy', csp)
    .send(body);
}

/** A site's page (HTML, status 200). */
export function pageAnswer(reply: FastifyReply, body: string): FastifyReply {
  return html(reply, 200, body, BACK_OFFICE_CSP);
}

/** The page saying why project `id`'s site cannot be used now (404 when there is no such project, else 403). */
export function problemAnswer(
  reply: FastifyReply,
  id: string,
  problem: SiteProblem | undefined,
  language: Language,
): FastifyReply {
  return html(
    reply,
    problem?.code === 'notFound' ? 404 : 403,
    problemPage(id, problem ?? { code: 'notFound', message: 'site.projectMissing', params: {} }, language),
    BACK_OFFICE_CSP,
  );
}

/** A page request: project `id`, the path `rest` within its site ('' its root), and whether it came on the project's own origin. */
export interface PageRequest {
  id: string;
  rest: string;
  own: boolean;
}
type PageHandler = (page: PageRequest, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** A page of the sites at each of `urls` (the project's id in `:id`, any path within it in `*`). */
export function sitePages(
  app: FastifyInstance,
  urls: readonly string[],
  handler: PageHandler,
  options: { securityHeaders?: false } = {},
): void {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  for (const url of urls) {
    typed.get(
      url,
      {
        schema: { hide: true, params: sitePageParams, response: { 200: siteContent } },
        ...(options.securityHeaders === false ? { config: { securityHeaders: false } } : {}),
      },
      async (request, reply) => {
        const { id, '*': rest = '' } = request.params;
        await handler({ id, rest, own: ownOrigin.has(request.raw) }, request, reply);
        return reply;
      },
    );
  }
}

/** A file of the sites' own (their style sheet, the back office's script), kept by browsers for five minutes. */
export function siteAsset(app: FastifyInstance, url: string, contentType: string, body: string): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(url, { schema: { hide: true, response: { 200: siteContent } } }, async (_request, reply) =>
      reply.header('content-type', contentType).header('cache-control', 'public, max-age=300').send(body),
    );
}

/** A back office's calls are never stored by a cache. */
export function noStore(api: FastifyInstance): void {
  api.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    return payload;
  });
}
