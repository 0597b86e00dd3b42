import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { backOfficeApiRoutes } from './back-office-api.routes.js';
import { backOfficePageRoutes } from './back-office-page.routes.js';
import { backOfficeTableRoutes } from './back-office-tables.routes.js';
import { frontSiteRoutes } from './front-site.routes.js';
import { noStore, type SiteRouteDeps } from './site-http.js';
import { backOfficeSignOnRoutes, consoleSignOnRoutes } from './site-sign-on.routes.js';

export { ownOrigin, type SiteRouteDeps } from './site-http.js';

/**
 * The project sites (issue 15), one file a surface: `/_p_{id}/…` the front site (the html package,
 * or a default page), `/admin/_p_{id}/…` the back office (a page, its script, and its calls under
 * `/admin/_p_{id}/api/…`: signing in, users, roles and media, tables; back-office-gate.ts finds the
 * signed-in caller of every call but the sign-in ones), and the console's side of single sign-on. A project that cannot be used now answers a page saying why, and its calls are
 * refused (403).
 */
export function siteRoutes(deps: SiteRouteDeps) {
  return async (app: FastifyInstance) => {
    await app.register(frontSiteRoutes(deps));
    await app.register(backOfficePageRoutes(deps));
    // The back office's calls: they take files (the media upload), and their answers are never stored.
    await app.register(async (api) => {
      await api.register(fastifyMultipart);
      noStore(api);
      await api.register(backOfficeSignOnRoutes(deps));
      await api.register(backOfficeApiRoutes(deps));
    });
    // Tables (published ones): the records, under the table's record permissions for a project user.
    const tables = deps.tables;
    if (tables) {
      await app.register(async (api) => {
        noStore(api);
        await api.register(backOfficeTableRoutes({ ...deps, tables }));
      });
    }
    await app.register(consoleSignOnRoutes(deps));
  };
}
