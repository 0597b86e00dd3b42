import type { Language, ProjectPermissions, TemplateAppInfo, TemplateView } from '@gantry/shared';
import { inMarket, mayManageTemplate, mayUseTemplate } from '../../policy/policy.js';
import type { UserRow } from '../users/user.repository.js';
import type { TemplateCard } from './template.repository.js';
import { type BuiltinTemplate, builtinOverviewSvg } from './template-builtins.js';
import { coverSvg, industryLook } from './template-images.js';

/** Where the template calls live (`/portal/rest/spm/templates`). */
export const TEMPLATES_PATH = '/portal/rest/spm/templates';

export interface Viewer {
  user: UserRow | undefined;
  permissions: ProjectPermissions | undefined;
  language: Language;
}

/**
 * A template as the gallery and the preview answer it (console.md §3). Public to everyone who may
 * see it: the card, the long description, counts, developer and contact. The package itself only
 * through `download_url`, given to its owner alone. Built-in templates speak the caller's language.
 */
/** The stored app_info (counted from the package when it was written), every count present. */
function appInfo(stored: Record<string, number>): TemplateAppInfo {
  const count = (key: keyof TemplateAppInfo) => stored[key] ?? 0;
  return {
    models: count('models'),
    nodes: count('nodes'),
    views: count('views'),
    worksheets: count('worksheets'),
    reports: count('reports'),
    flows: count('flows'),
  };
}

/**
 * A drawn picture of a template: its cover when it has none of its own (from its name and industry),
 * a built-in's description picture; undefined: it has no such picture.
 */
export function templatePicture(
  row: TemplateCard,
  builtin: BuiltinTemplate | undefined,
  kind: 'cover' | 'overview',
  language: Language,
): string | undefined {
  if (kind === 'cover') return coverSvg(builtin ?? { name: row.name, ...industryLook(row.industry) }, language);
  return builtin ? builtinOverviewSvg(builtin, language) : undefined;
}

/** A drawn picture in the answer itself (a `data:` URL), for a template not everyone may see. */
const inline = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

export function presentTemplate(row: TemplateCard, viewer: Viewer, builtin?: BuiltinTemplate): TemplateView {
  const { user, permissions, language } = viewer;
  const version = row.updatedAt.getTime().toString(36);
  const mine = user?.status === true && mayManageTemplate(user, row);
  // A market template's drawn pictures are public URLs (cached by the browser and shared caches).
  // Any other's are answered only to a caller who may see the template, and an <img> sends no token:
  // they travel inline in this answer, which only such a caller gets.
  const shared = inMarket(row);
  const picture = (kind: 'cover' | 'overview', file: string) =>
    shared
      ? `${TEMPLATES_PATH}/${encodeURIComponent(row.id)}/${file}?v=${version}&lang=${language}`
      : inline(templatePicture(row, builtin, kind, language) ?? '');
  return {
    id: row.id,
    schemaId: row.id,
    name: builtin ? builtin.name[language] : row.name,
    developer: builtin ? builtin.developer[language] : row.developer,
    contact: row.contact,
    industry: row.industry,
    card_display: {
      cover: row.cover ?? picture('cover', 'cover.svg'),
      intro: builtin ? builtin.intro[language] : row.intro,
    },
    template_description: builtin ? builtin.description[language] : row.description,
    images: builtin ? [picture('overview', 'images/1.svg')] : row.images,
    num_installed: row.numInstalled,
    updated_at: row.updatedAt.toISOString(),
    publish_time: row.createdAt.toISOString(),
    app_info: appInfo(row.appInfo),
    plan_detail: row.planDetail ?? null,
    type: 'project template',
    source: row.source,
    published: row.published,
    mine,
    usable: user?.status === true && mayUseTemplate(user, permissions, row),
    download_url: mine ? `${TEMPLATES_PATH}/${encodeURIComponent(row.id)}/package` : null,
  };
}
