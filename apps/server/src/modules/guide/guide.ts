import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { isOneOf, LANGUAGES, type Language } from '@gantry/shared';
import type { Marked } from 'marked';
import { SERVER_ROOT } from '../../server-root.js';

/** The user guide's Markdown, one file per language: docs/guide/<language>.md in the repository. */
export const GUIDE_DIR = fileURLToPath(new URL('../../docs/guide/', SERVER_ROOT));
/** Where the server answers it (a stable path, whatever the console's own address). */
export const GUIDE_PATH = '/guide';

const TEXT: Record<Language, { lang: string; title: string; other: Language; otherLabel: string }> = {
  zh_Hans: { lang: 'zh-Hans', title: 'Gantry 用户指南', other: 'en', otherLabel: 'English' },
  en: { lang: 'en', title: 'Gantry user guide', other: 'zh_Hans', otherLabel: '简体中文' },
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Headings get ids from their text (the table of contents links to them); the Markdown is ours, in
 * the repository, so its HTML is trusted. No script and no inline style: the page works under the
 * console's Content-Security-Policy.
 */
async function renderer(): Promise<Marked> {
  // Loaded with the first guide asked for, not at every start.
  const { Marked } = await import('marked');
  const seen = new Map<string, number>();
  return new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth, text }) {
        const base =
          text
            .toLowerCase()
            .replace(/[^\p{L}\p{N}]+/gu, '-')
            .replace(/^-|-$/g, '') || 'section';
        const count = seen.get(base) ?? 0;
        seen.set(base, count + 1);
        const id = count ? `${base}-${count}` : base;
        return `<h${depth} id="${escapeHtml(id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
}

/** The guide in one language as a whole HTML page. */
export async function renderGuide(language: Language, dir = GUIDE_DIR): Promise<string> {
  const markdown = await readFile(`${dir}${language}.md`, 'utf8');
  const body = await (await renderer()).parse(markdown);
  const text = TEXT[language];
  return `<!doctype html>
<html lang="${text.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(text.title)}</title>
<link rel="stylesheet" href="${GUIDE_PATH}/guide.css">
</head>
<body>
<header class="guide-bar"><a href="/portal/">Gantry</a><a class="guide-lang" href="${GUIDE_PATH}/${text.other}" hreflang="${TEXT[text.other].lang}">${text.otherLabel}</a></header>
<main class="guide">
${body}</main>
</body>
</html>
`;
}

/** Pages rendered once per process (the Markdown ships with the server; an upgrade restarts it). */
export function guideCache(dir = GUIDE_DIR) {
  const pages = new Map<Language, Promise<string>>();
  return (language: Language): Promise<string> => {
    let page = pages.get(language);
    if (!page) {
      page = renderGuide(language, dir);
      // a failed read is tried again next time
      page.catch(() => pages.delete(language));
      pages.set(language, page);
    }
    return page;
  };
}

/**
 * The guide's language for a request: `?lang=` when it names one, else the browser's
 * Accept-Language (its first zh or en), else the system language from settings.
 */
export function guideLanguage(query: unknown, acceptLanguage: string | undefined, system: Language): Language {
  if (isOneOf(LANGUAGES, query)) return query;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase() ?? '';
    if (tag.startsWith('zh')) return 'zh_Hans';
    if (tag.startsWith('en')) return 'en';
  }
  return system;
}

export const GUIDE_CSS = `:root{color-scheme:light;--text:rgba(0,0,0,.88);--muted:rgba(0,0,0,.55);--line:#e5e7eb;--accent:#1677ff}
*{box-sizing:border-box}
body{margin:0;font:16px/1.7 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","PingFang SC","Microsoft YaHei",sans-serif;color:var(--text);background:#f5f5f5}
.guide-bar{position:sticky;top:0;display:flex;justify-content:space-between;align-items:center;padding:10px 24px;background:#001529}
.guide-bar a{color:#fff;text-decoration:none;font-weight:600}
.guide-bar .guide-lang{font-weight:400;opacity:.85}
.guide{max-width:860px;margin:24px auto;padding:24px 40px 48px;background:#fff;border-radius:8px}
h1{font-size:30px;line-height:1.3;margin:8px 0 16px}
h2{font-size:22px;margin:40px 0 12px;padding-top:8px;border-top:1px solid var(--line)}
h3{font-size:18px;margin:28px 0 8px}
a{color:var(--accent)}
code{font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f3f4f6;padding:1px 5px;border-radius:4px}
pre{background:#f3f4f6;padding:12px 16px;border-radius:6px;overflow-x:auto}
pre code{padding:0;background:none}
table{border-collapse:collapse;width:100%;margin:12px 0;font-size:15px;display:block;overflow-x:auto}
th,td{border:1px solid var(--line);padding:6px 10px;text-align:left;vertical-align:top}
th{background:#fafafa}
blockquote{margin:12px 0;padding:4px 16px;color:var(--muted);border-left:4px solid var(--line)}
@media (max-width:640px){.guide{margin:0;padding:16px 16px 32px;border-radius:0}.guide-bar{padding:10px 16px}}
`;
