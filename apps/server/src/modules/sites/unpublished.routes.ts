import { type Language, pickLanguage } from '@gantry/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where the page's style sheet is served (a file, not inline: the page works under a strict CSP). */
export const UNPUBLISHED_CSS = '/_site/unpublished.css';

const TEXT: Record<Language, { lang: string; title: string; body: string; hint: string; console: string }> = {
  zh_Hans: {
    lang: 'zh-Hans',
    title: '站点尚未发布',
    body: '项目“{id}”的{site}尚未发布。',
    hint: '项目发布后，此地址将打开它的站点。如需帮助，请联系平台管理员。',
    console: '返回控制台',
  },
  en: {
    lang: 'en',
    title: 'This site is not published yet',
    body: 'The {site} of project “{id}” has not been published.',
    hint: 'Once the project is published, this address opens its site. Ask the platform administrator for help.',
    console: 'Back to the console',
  },
};
const SITE: Record<Language, Record<'front' | 'admin', string>> = {
  zh_Hans: { front: '前台站点', admin: '后台站点' },
  en: { front: 'front site', admin: 'back office' },
};

const html = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The page, in the language the browser asks for (Accept-Language; Chinese by default). */
export function unpublishedPage(projectId: string, site: 'front' | 'admin', language: Language): string {
  const text = TEXT[language];
  const body = html(text.body)
    .replace('{id}', `<strong>${html(projectId)}</strong>`)
    .replace('{site}', html(SITE[language][site]));
  return `<!doctype html>
<html lang="${text.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${html(text.title)}</title>
<link rel="stylesheet" href="${UNPUBLISHED_CSS}">
</head>
<body>
<main class="card" data-testid="site-unpublished">
<div class="mark" aria-hidden="true">404</div>
<h1>${html(text.title)}</h1>
<p>${body}</p>
<p class="hint">${html(text.hint)}</p>
<a class="button" href="/portal/">${html(text.console)}</a>
</main>
</body>
</html>
`;
}

/** The console's look: its font stack, grey page, white card, primary blue (#1677ff). */
const CSS = `*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:24px;background:#f5f5f5;color:rgba(0,0,0,.88);font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","PingFang SC","Microsoft YaHei",sans-serif;font-size:14px;line-height:1.6}
.card{width:100%;max-width:480px;background:#fff;border-radius:8px;box-shadow:0 1px 2px rgba(0,0,0,.03),0 1px 6px -1px rgba(0,0,0,.02),0 2px 4px rgba(0,0,0,.02);padding:40px 32px;text-align:center}
.mark{font-size:48px;font-weight:600;color:#1677ff;line-height:1;margin-bottom:16px}
h1{font-size:20px;font-weight:600;margin:0 0 12px}
p{margin:0 0 8px;overflow-wrap:anywhere}
.hint{color:rgba(0,0,0,.45)}
.button{display:inline-block;margin-top:20px;padding:4px 15px;border-radius:6px;background:#1677ff;color:#fff;text-decoration:none;line-height:24px}
.button:hover{background:#4096ff}
`;

/**
 * A project's sites (`/_p_{id}/…` and `/admin/_p_{id}/…`, where the console opens them when the
 * project has neither a port nor a domain) answer, until sites exist, a 404 page in the console's
 * style saying the site is not published — not raw JSON (issue 10).
 */
export function unpublishedSiteRoutes() {
  return async (app: FastifyInstance) => {
    const answer = (site: 'front' | 'admin') => async (request: FastifyRequest, reply: FastifyReply) => {
      const { id } = request.params as { id: string };
      const language = pickLanguage(request.headers['accept-language']);
      return reply
        .code(404)
        .header('content-type', 'text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('content-language', TEXT[language].lang)
        .header('vary', 'Accept-Language')
        .send(unpublishedPage(id, site, language));
    };
    for (const [prefix, site] of [
      ['/_p_', 'front'],
      ['/admin/_p_', 'admin'],
    ] as const) {
      app.get(`${prefix}:id`, { schema: { hide: true } }, answer(site));
      app.get(`${prefix}:id/*`, { schema: { hide: true } }, answer(site));
    }
    app.get(UNPUBLISHED_CSS, { schema: { hide: true } }, async (_request, reply) =>
      reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(CSS),
    );
  };
}
