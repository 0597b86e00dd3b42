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
  'template.imageType': {
    zh_Hans: '模板图片只能是 PNG、JPEG、GIF 或 WebP 图片（按文件内容判断；不接受 SVG）',
    en: 'A template image must be a PNG, JPEG, GIF or WebP picture (judged by its content; SVG is not accepted)',
  },
  'template.imageTooLarge': {
    zh_Hans: '模板图片不能超过 {{mb}} MB',
    en: 'A template image may be at most {{mb}} MB',
  },
  'template.imageDimensions': {
    zh_Hans: '无法读取图片尺寸，或图片过大（宽、高均不超过 {{side}} 像素）',
    en: 'The picture’s size cannot be read or is too large (at most {{side}} × {{side}} pixels)',
  },
  'template.imageUrl': {
    zh_Hans: '封面和介绍图片须先上传为模板图片',
    en: 'Cover and description images must be images uploaded for templates',
  },
  'template.imageMissing': {
    zh_Hans: '图片不存在，请重新上传',
    en: 'The image no longer exists: upload it again',
  },
} as const satisfies Record<string, Record<Language, string>>;

export type TemplateMessageKey = keyof typeof TEMPLATE_MESSAGES;

export function templateText(
  key: TemplateMessageKey,
  language: Language,
  params: Record<string, string | number> = {},
): string {
  return fill(TEMPLATE_MESSAGES[key][language], params);
}
