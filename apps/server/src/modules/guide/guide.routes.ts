import type { Language } from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { SettingsService } from '../settings/settings.service.js';
import { GUIDE_CSS, GUIDE_PATH, guideCache, guideLanguage } from './guide.js';

/**
 * The user guide (issue 10, item 11): GET /guide/ answers the page in the user's language (a
 * redirect, so the address says which), /guide/zh_Hans and /guide/en the pages, /guide/guide.css
 * their style. Public, like the login page: the guide explains signing in too.
 */
export function guideRoutes(settings: SettingsService, dir?: string) {
  const page = guideCache(dir);
  return async (app: FastifyInstance) => {
    app.get(GUIDE_PATH, (_request, reply) => reply.redirect(`${GUIDE_PATH}/`));
    app.get<{ Querystring: { lang?: string } }>(`${GUIDE_PATH}/`, async (request, reply) => {
      const system = (await settings.getPublic()).language;
      const language = guideLanguage(request.query.lang, request.headers['accept-language'], system);
      return reply.header('vary', 'Accept-Language').redirect(`${GUIDE_PATH}/${language}`);
    });
    for (const language of ['zh_Hans', 'en'] as const satisfies readonly Language[]) {
      app.get(`${GUIDE_PATH}/${language}`, async (_request, reply) =>
        reply
          .type('text/html; charset=utf-8')
          .header('content-language', language === 'en' ? 'en' : 'zh-Hans')
          .header('cache-control', 'no-cache')
          .send(await page(language)),
      );
    }
    app.get(`${GUIDE_PATH}/guide.css`, (_request, reply) =>
      reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(GUIDE_CSS),
    );
  };
}
