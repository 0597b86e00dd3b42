import {
  type Language,
  type ProjectPermissions,
  TEMPLATE_APP_INFO,
  type TemplateAppInfo,
  type TemplateView,
} from '@gantry/shared';
import { mayManageTemplate, mayUseTemplate } from '../../policy/policy.js';
import type { UserRow } from '../users/user.repository.js';
import type { TemplateCard } from './template.repository.js';
import type { BuiltinTemplate } from './template-builtins.js';

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
  const info = {} as TemplateAppInfo;
  for (const key of Object.keys(TEMPLATE_APP_INFO) as Array<keyof TemplateAppInfo>) info[key] = stored[key] ?? 0;
  return info;
}

export function presentTemplate(row: TemplateCard, viewer: Viewer, builtin?: BuiltinTemplate): TemplateView {
  const { user, permissions, language } = viewer;
  const version = row.updatedAt.getTime().toString(36);
  const mine = user?.status === true && mayManageTemplate(user, row);
  return {
    id: row.id,
    schemaId: row.id,
    name: builtin ? builtin.name[language] : row.name,
    developer: builtin ? builtin.developer[language] : row.developer,
    contact: row.contact,
    industry: row.industry,
    card_display: {
      cover: row.cover ?? `${TEMPLATES_PATH}/${encodeURIComponent(row.id)}/cover.svg?v=${version}&lang=${language}`,
      intro: builtin ? builtin.intro[language] : row.intro,
    },
    template_description: builtin ? builtin.description[language] : row.description,
    images: builtin
      ? [`${TEMPLATES_PATH}/${encodeURIComponent(row.id)}/images/1.svg?v=${version}&lang=${language}`]
      : row.images,
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
