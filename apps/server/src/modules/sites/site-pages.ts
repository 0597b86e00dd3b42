import { type Language, translate } from '@gantry/shared';
import type { SiteProblem } from './site.service.js';

/** The sites' own style sheet and back-office script (files: the pages work under a strict CSP). */
export const SITE_CSS = '/_site/site.css';
export const BACK_OFFICE_JS = '/_site/back-office.js';

const LANG: Record<Language, string> = { zh_Hans: 'zh-Hans', en: 'en' };

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** An image address from the settings, kept only when it is a server path or an http(s) address. */
function imageUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  if (/^\/(?!\/)/.test(url) || /^https?:\/\//i.test(url)) return url;
  return undefined;
}

function page(language: Language, title: string, body: string, extraHead = ''): string {
  return `<!doctype html>
<html lang="${LANG[language]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${SITE_CSS}">
${extraHead}</head>
<body>
${body}
</body>
</html>
`;
}

/** The page of a project whose sites cannot be used now (disabled, tenant disabled, grant not started or ended). */
export function problemPage(projectId: string, problem: SiteProblem, language: Language): string {
  const title = translate('site.unavailableTitle', language);
  return page(
    language,
    title,
    `<main class="card" data-testid="site-unavailable" data-reason="${problem.code}">
<div class="mark" aria-hidden="true">!</div>
<h1>${escapeHtml(translate(problem.message, language, problem.params))}</h1>
<p class="hint">${escapeHtml(translate('site.unavailableHint', language))}</p>
<p class="hint">${escapeHtml(projectId)}</p>
</main>`,
  );
}

/** The front site of a project without an html package: its name, the settings' project logo and background, a link to its back office. */
export function defaultFrontPage(
  project: { name: string },
  images: { logo?: string | undefined; background?: string | undefined },
  backOffice: string,
  language: Language,
): string {
  const logo = imageUrl(images.logo);
  const background = imageUrl(images.background);
  return page(
    language,
    project.name,
    `${background ? `<img class="background" src="${escapeHtml(background)}" alt="">\n` : ''}<main class="card" data-testid="site-default">
${logo ? `<img class="logo" src="${escapeHtml(logo)}" alt="" data-testid="site-logo">\n` : ''}<h1>${escapeHtml(translate('site.welcome', language, { name: project.name }))}</h1>
<p class="hint">${escapeHtml(translate('site.noPackage', language))}</p>
<a class="button" href="${escapeHtml(backOffice)}">${escapeHtml(translate('site.toBackOffice', language))}</a>
</main>`,
  );
}

/** The back office: a shell the script fills (sign-in, the project's name and grant, media, users and roles). */
export function backOfficePage(
  project: { id: string; name: string },
  base: string,
  logo: string | undefined,
  language: Language,
): string {
  const src = imageUrl(logo);
  return page(
    language,
    `${project.name} · ${translate('site.backOffice', language)}`,
    `<div id="app" data-base="${escapeHtml(base)}" data-project="${escapeHtml(project.id)}" data-name="${escapeHtml(project.name)}" data-lang="${language}"${src ? ` data-logo="${escapeHtml(src)}"` : ''}></div>`,
    `<script type="module" src="${BACK_OFFICE_JS}"></script>\n`,
  );
}

/** The console's look: its font stack, grey page, white card, primary blue (#1677ff). */
export const SITE_STYLES = `*{box-sizing:border-box}
body{margin:0;min-height:100vh;background:#f5f5f5;color:rgba(0,0,0,.88);font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","PingFang SC","Microsoft YaHei",sans-serif;font-size:14px;line-height:1.6}
main.card{position:relative;width:100%;max-width:480px;margin:10vh auto;background:#fff;border-radius:8px;box-shadow:0 1px 6px rgba(0,0,0,.08);padding:40px 32px;text-align:center}
.background{position:fixed;inset:0;width:100%;height:100%;object-fit:cover;z-index:0}
.logo{max-width:160px;max-height:80px;margin-bottom:16px}
.mark{font-size:48px;font-weight:600;color:#faad14;line-height:1;margin-bottom:16px}
h1{font-size:20px;font-weight:600;margin:0 0 12px;overflow-wrap:anywhere}
h2{font-size:16px;margin:24px 0 8px}
p{margin:0 0 8px;overflow-wrap:anywhere}
.hint{color:rgba(0,0,0,.45)}
.button,button{display:inline-block;margin-top:8px;padding:4px 15px;border:0;border-radius:6px;background:#1677ff;color:#fff;text-decoration:none;line-height:24px;font:inherit;cursor:pointer}
button.link{background:none;color:#1677ff;padding:0 4px;margin:0}
button.danger{background:#ff4d4f}
.button:hover,button:hover{opacity:.85}
form.stack{display:flex;flex-direction:column;gap:12px;text-align:left}
input,select{font:inherit;padding:4px 11px;border:1px solid #d9d9d9;border-radius:6px}
label{display:flex;flex-direction:column;gap:4px}
label.inline{flex-direction:row;align-items:center;gap:8px}
.error{color:#ff4d4f}
.shell{max-width:1100px;margin:0 auto;padding:16px}
header.bar{display:flex;align-items:center;justify-content:space-between;gap:16px;background:#001529;color:#fff;padding:12px 16px;border-radius:8px}
header.bar img{max-height:32px}
.panel{background:#fff;border-radius:8px;padding:16px 24px;margin-top:16px}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #f0f0f0}
nav.tabs{display:flex;gap:8px;margin-top:16px}
nav.tabs button{background:#fff;color:rgba(0,0,0,.88)}
nav.tabs button[aria-selected=true]{background:#1677ff;color:#fff}
`;
