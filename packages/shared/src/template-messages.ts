import { fill } from './messages.js';
import type { Language } from './validations.js';

/**
 * Messages of solution templates (issue 14): task outcomes and the gallery's texts the server gives.
 * A module of their own, like the backup and media messages.
 */
export const TEMPLATE_MESSAGES = {
  'template.installed': { zh_Hans: '模板“{{name}}”安装完成', en: 'Template "{{name}}" installed' },
  'template.installRecord': { zh_Hans: '从模板安装：{{name}}', en: 'Installed from template: {{name}}' },
  'template.gone': { zh_Hans: '模板不存在或其安装包已删除', en: 'The template or its package no longer exists' },
  'template.projectGone': { zh_Hans: '项目不存在', en: 'The project no longer exists' },
  'template.published': { zh_Hans: '模板“{{name}}”已发布', en: 'Template "{{name}}" published' },
} as const satisfies Record<string, Record<Language, string>>;

export type TemplateMessageKey = keyof typeof TEMPLATE_MESSAGES;

export function templateText(
  key: TemplateMessageKey,
  language: Language,
  params: Record<string, string | number> = {},
): string {
  return fill(TEMPLATE_MESSAGES[key][language], params);
}
