import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import { SECURITY_HEADERS as HELMET_HEADERS } from '../../plugins/security-headers.js';
import { PackageFileCache, packageSegments, serveFromPackage } from './front-site.js';
import {
  languageOf,
  type PageRequest,
  pageAnswer,
  problemAnswer,
  type SiteRouteDeps,
  siteAsset,
  sitePages,
} from './site-http.js';
import { defaultFrontPage, SITE_CSS, SITE_STYLES } from './site-pages.js';

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
 * What plugins/security-headers.ts sets on every other answer, but the CSP and
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

/**
 * The front site (issue 15) `/_p_{id}/…`: the project's html package (or a default page linking its
 * back office), and the sites' style sheet. A project that cannot be used now answers a page saying why.
 */
export function frontSiteRoutes(deps: SiteRouteDeps) {
  const { sites, settings, store } = deps;
  const files = deps.files ?? new PackageFileCache();

  /** Project `id`'s file `rest` (the package's path; '' its root). */
  const front = async ({ id, rest, own }: PageRequest, request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(SECURITY_HEADERS);
    const { project, problem } = await sites.cachedState(id);
    if (problem || !project) return problemAnswer(reply, id, problem, await languageOf(request, settings));
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
    return pageAnswer(
      reply,
      defaultFrontPage(
        project,
        { logo: s.project_logo, background: s.project_backgroundImage },
        backOffice,
        await languageOf(request, settings),
      ),
    );
  };

  return async (app: FastifyInstance) => {
    siteAsset(app, SITE_CSS, 'text/css; charset=utf-8', SITE_STYLES);
    // Helmet builds its middlewares again for every request; the front site's files, the hottest
    // path, set the same headers from a constant instead (site.routes.test.ts compares them).
    sitePages(app, ['/_p_:id', '/_p_:id/*'], front, { securityHeaders: false });
  };
}
