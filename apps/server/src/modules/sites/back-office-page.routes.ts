import type { FastifyInstance } from 'fastify';
import { BACK_OFFICE_SCRIPT } from './back-office-script.js';
import { siteProblem } from './site.service.js';
import { languageOf, pageAnswer, problemAnswer, type SiteRouteDeps, siteAsset, sitePages } from './site-http.js';
import { BACK_OFFICE_JS, backOfficePage } from './site-pages.js';

/**
 * The back office's page (issue 15) `/admin/_p_{id}/…` (every path: the page routes itself) and its
 * script; its calls are site-sign-on and back-office-api. A project that cannot be used now answers
 * a page saying why.
 */
export function backOfficePageRoutes(deps: SiteRouteDeps) {
  const { sites, settings } = deps;
  return async (app: FastifyInstance) => {
    siteAsset(app, BACK_OFFICE_JS, 'text/javascript; charset=utf-8', BACK_OFFICE_SCRIPT);

    sitePages(app, ['/admin/_p_:id', '/admin/_p_:id/*'], async ({ id, own }, request, reply) => {
      const project = await sites.project(id);
      const problem = siteProblem(project, sites.now());
      const language = await languageOf(request, settings);
      if (problem || !project) return problemAnswer(reply, id, problem, language);
      const s = await settings.get();
      const base = own ? '/admin' : `/admin/_p_${encodeURIComponent(id)}`;
      return pageAnswer(reply, backOfficePage(project, base, s.project_logo || s.logo, language));
    });
  };
}
