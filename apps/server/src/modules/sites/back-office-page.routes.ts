import { siteContent, sitePageParams } from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BACK_OFFICE_SCRIPT } from './back-office-script.js';
import { siteProblem } from './site.service.js';
import { BACK_OFFICE_CSP, html, languageOf, ownOrigin, problemAnswer, type SiteRouteDeps } from './site-http.js';
import { BACK_OFFICE_JS, backOfficePage } from './site-pages.js';

/**
 * The back office's page (issue 15) `/admin/_p_{id}/…` (every path: the page routes itself) and its
 * script; its calls are site-sign-on and back-office-api. A project that cannot be used now answers
 * a page saying why.
 */
export function backOfficePageRoutes(deps: SiteRouteDeps) {
  const { sites, settings } = deps;
  return async (app: FastifyInstance) => {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    typed.get(BACK_OFFICE_JS, { schema: { hide: true, response: { 200: siteContent } } }, async (_request, reply) =>
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .send(BACK_OFFICE_SCRIPT),
    );

    for (const url of ['/admin/_p_:id', '/admin/_p_:id/*']) {
      typed.get(
        url,
        { schema: { hide: true, params: sitePageParams, response: { 200: siteContent } } },
        async (request, reply) => {
          const { id } = request.params;
          const language = languageOf(request);
          const project = await sites.project(id);
          const problem = siteProblem(project, sites.now());
          if (problem || !project) return problemAnswer(reply, id, problem, language);
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
        },
      );
    }
  };
}
