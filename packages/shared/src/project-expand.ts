import { z } from 'zod';
import { identifierProblem } from './fields/identifier.js';
import { FIELD_REGISTRY, type FieldType } from './fields/registry.js';
import { type Field, fieldSchema } from './fields/table.js';

/**
 * Project extension fields (console.md §2 `settings/project`, §3 Settings.projectExpand): the schema
 * editor's extra project fields, built on the field-type registry of the table designer. A field is
 * a widget (with, for text, its kind) and the registry options of the type the widget stands for;
 * `editableFields` name the fields a project's edit may change, `batchChangeFields` those the project
 * list's batch change may set. A project keeps its values in `extra`; the server checks them against
 * this schema on every save (the registry's value schemas, required, not editable, computed).
 */

export const PROJECT_WIDGETS = [
  'text',
  'number',
  'selector',
  'time',
  'dateRange',
  'time2',
  'boolean',
  'attachment',
  'attachmentGroup',
  'location',
  'link',
  'region',
  'serial',
  'rating',
  'richText',
] as const;
export type ProjectWidget = (typeof PROJECT_WIDGETS)[number];

/** The kinds of the text widget: normal text, password, serial id (given by the server), formula. */
export const TEXT_WIDGET_KINDS = ['normal', 'password', 'serialId', 'formula'] as const;
export type TextWidgetKind = (typeof TEXT_WIDGET_KINDS)[number];

export const PROJECT_EXPAND_LIMITS = { fields: 100, form: 20_000 } as const;

export const extensionField = z.strictObject({
  name: z.string().max(200),
  title: z.string().trim().min(1, { error: 'field.titleRequired' }).max(100),
  description: z.string().max(1000).optional(),
  widget: z.enum(PROJECT_WIDGETS),
  /** Text widgets only. */
  kind: z.enum(TEXT_WIDGET_KINDS).default('normal'),
  required: z.boolean().default(false),
  /** Options of the registry type the widget stands for (see `widgetType`). */
  options: z.record(z.string(), z.unknown()).default({}),
});
export type ExtensionField = z.output<typeof extensionField>;

/** The registry type a widget stands for, and options it fixes. */
export function widgetType(field: Pick<ExtensionField, 'widget' | 'kind' | 'options'>): {
  type: FieldType;
  fixed: Record<string, unknown>;
} {
  switch (field.widget) {
    case 'text':
      if (field.kind === 'serialId') return { type: 'autoNumber', fixed: {} };
      if (field.kind === 'formula') return { type: 'formula', fixed: {} };
      return { type: 'text', fixed: { kind: field.kind === 'password' ? 'password' : 'ordinary' } };
    case 'richText':
      return { type: 'text', fixed: { kind: 'richText', multiline: true } };
    case 'selector':
      return { type: field.options.multiple === true ? 'multiSelect' : 'select', fixed: {} };
    case 'time2':
      return { type: 'date', fixed: {} };
    case 'attachment':
      return { type: 'file', fixed: { maxCount: 1 } };
    case 'attachmentGroup':
      return { type: 'file', fixed: {} };
    case 'serial':
      return { type: 'autoNumber', fixed: { prefix: '', datePart: 'none' } };
    default:
      return { type: field.widget, fixed: {} };
  }
}

/** The extension field as a registry field (the same value checks as a table's records). */
export function asRegistryField(field: ExtensionField): Field {
  const { type, fixed } = widgetType(field);
  const { multiple: _multiple, ...options } = field.options;
  return fieldSchema.parse({
    name: field.name,
    title: field.title,
    ...(field.description ? { description: field.description } : {}),
    required: field.required,
    type,
    options: { ...options, ...fixed },
  });
}

export const projectExpandSchema = z
  .object({
    schema: z.object({ fields: z.array(extensionField).max(PROJECT_EXPAND_LIMITS.fields).default([]) }).prefault({}),
    /** The editor's form layout: kept for the console, not read by the server. */
    form: z
      .record(z.string(), z.unknown())
      .default({})
      .refine((form) => JSON.stringify(form).length <= PROJECT_EXPAND_LIMITS.form),
    editableFields: z.array(z.string().max(64)).max(PROJECT_EXPAND_LIMITS.fields).default([]),
    batchChangeFields: z.array(z.string().max(64)).max(PROJECT_EXPAND_LIMITS.fields).default([]),
  })
  .superRefine((expand, ctx) => {
    const seen = new Set<string>();
    expand.schema.fields.forEach((field, index) => {
      const at = ['schema', 'fields', index];
      const problem = identifierProblem(field.name, widgetType(field).type === 'text');
      if (problem) ctx.addIssue({ code: 'custom', path: [...at, 'name'], message: problem });
      else if (seen.has(field.name))
        ctx.addIssue({ code: 'custom', path: [...at, 'name'], message: 'table.fieldDuplicate' });
      seen.add(field.name);
      const { type, fixed } = widgetType(field);
      const { multiple: _multiple, ...options } = field.options;
      const parsed = (FIELD_REGISTRY[type].options as z.ZodType).safeParse({ ...options, ...fixed });
      if (!parsed.success)
        for (const issue of parsed.error.issues)
          ctx.addIssue({
            code: 'custom',
            path: [...at, 'options', ...issue.path.map(String)],
            message: issue.message.includes('.') ? issue.message : 'field.options',
          });
    });
    for (const list of ['editableFields', 'batchChangeFields'] as const)
      expand[list].forEach((name, index) => {
        if (!seen.has(name)) ctx.addIssue({ code: 'custom', path: [list, index], message: 'table.unknownField' });
      });
    expand.batchChangeFields.forEach((name, index) => {
      const field = expand.schema.fields.find((f) => f.name === name);
      if (field && isComputedWidget(field))
        ctx.addIssue({ code: 'custom', path: ['batchChangeFields', index], message: 'project.expandComputed' });
    });
  });
export type ProjectExpand = z.output<typeof projectExpandSchema>;

/** Serial ids, serial numbers and formulas: the server sets their values. */
export function isComputedWidget(field: Pick<ExtensionField, 'widget' | 'kind' | 'options'>): boolean {
  return FIELD_REGISTRY[widgetType(field).type].computed === true;
}

/** PATCH project/_batch: set the batch-changeable extension values of several projects at once. */
export const projectBatchBody = z.strictObject({
  ids: z.array(z.string().min(1).max(64)).min(1).max(500),
  extra: z.record(z.string(), z.unknown()).refine((extra) => Object.keys(extra).length > 0),
});
export type ProjectBatchBody = z.infer<typeof projectBatchBody>;

export const PROJECT_EXPAND_MESSAGES = {
  'project.expandNotEditable': {
    zh_Hans: '该扩展字段不可编辑',
    en: 'This extension field cannot be edited',
  },
  'project.expandNotBatch': {
    zh_Hans: '该扩展字段不可批量修改',
    en: 'This extension field cannot be changed in a batch',
  },
  'project.expandComputed': {
    zh_Hans: '序列号和公式字段由系统生成',
    en: 'Serial and formula fields are set by the system',
  },
  'project.expandInvalid': {
    zh_Hans: '项目扩展字段校验失败',
    en: 'The project extension fields are not valid',
  },
  'project.batchChanged': { zh_Hans: '批量修改成功', en: 'Batch change successful' },
  'projectExpand.ui.title': { zh_Hans: '项目扩展', en: 'Project extension' },
  'projectExpand.ui.intro': {
    zh_Hans: '定义项目的扩展字段：项目表单显示它们，服务器在保存时校验。',
    en: 'Define extra project fields: the project form shows them and the server checks them on save.',
  },
  'projectExpand.ui.name': { zh_Hans: '标识', en: 'Identifier' },
  'projectExpand.ui.fieldTitle': { zh_Hans: '名称', en: 'Title' },
  'projectExpand.ui.widget': { zh_Hans: '控件', en: 'Widget' },
  'projectExpand.ui.kind': { zh_Hans: '文本类型', en: 'Text kind' },
  'projectExpand.ui.required': { zh_Hans: '必填', en: 'Required' },
  'projectExpand.ui.editable': { zh_Hans: '可编辑', en: 'Editable' },
  'projectExpand.ui.batch': { zh_Hans: '可批量修改', en: 'Batch-changeable' },
  'projectExpand.ui.options': { zh_Hans: '其他设置 (JSON 对象)', en: 'Other settings (JSON object)' },
  'projectExpand.ui.optionsExample': { zh_Hans: '例如 {"min":0,"max":100}', en: 'e.g. {"min":0,"max":100}' },
  'projectExpand.ui.optionsObject': {
    zh_Hans: '其他设置须为 JSON 对象，例如 {"min":0,"max":100}',
    en: 'Other settings must be a JSON object, e.g. {"min":0,"max":100}',
  },
  'projectExpand.ui.choices': { zh_Hans: '选项', en: 'Options' },
  'projectExpand.ui.choiceValue': { zh_Hans: '选项值', en: 'Value' },
  'projectExpand.ui.choiceLabel': { zh_Hans: '显示文字', en: 'Label' },
  'projectExpand.ui.addChoice': { zh_Hans: '添加选项', en: 'Add option' },
  'projectExpand.ui.removeChoice': { zh_Hans: '删除选项', en: 'Remove option' },
  'projectExpand.ui.multiple': { zh_Hans: '多选', en: 'Multiple choice' },
  'projectExpand.ui.problem': { zh_Hans: '字段“{{field}}”：{{problem}}', en: 'Field "{{field}}": {{problem}}' },
  'projectExpand.ui.add': { zh_Hans: '添加字段', en: 'Add field' },
  'projectExpand.ui.remove': { zh_Hans: '删除', en: 'Remove' },
  'projectExpand.ui.save': { zh_Hans: '保存', en: 'Save' },
  'projectExpand.ui.saved': { zh_Hans: '保存成功', en: 'Successfully saved' },
  'projectExpand.ui.section': { zh_Hans: '扩展字段', en: 'Extension fields' },
  'projectExpand.ui.batchChange': { zh_Hans: '批量修改', en: 'Batch change' },
  'projectExpand.ui.batchNone': { zh_Hans: '没有可批量修改的扩展字段', en: 'No extension field is batch-changeable' },
  'projectExpand.ui.invalidJson': { zh_Hans: '不是有效的 JSON', en: 'Not valid JSON' },
  'projectExpand.ui.computed': { zh_Hans: '由系统生成', en: 'Set by the system' },
  'projectExpand.widget.text': { zh_Hans: '文本', en: 'Text' },
  'projectExpand.widget.number': { zh_Hans: '数字', en: 'Number' },
  'projectExpand.widget.selector': { zh_Hans: '选择器', en: 'Selector' },
  'projectExpand.widget.time': { zh_Hans: '时间', en: 'Time' },
  'projectExpand.widget.dateRange': { zh_Hans: '日期范围', en: 'Date range' },
  'projectExpand.widget.time2': { zh_Hans: '日期时间', en: 'Date and time' },
  'projectExpand.widget.boolean': { zh_Hans: '布尔', en: 'Boolean' },
  'projectExpand.widget.attachment': { zh_Hans: '附件', en: 'Attachment' },
  'projectExpand.widget.attachmentGroup': { zh_Hans: '附件组', en: 'Attachment group' },
  'projectExpand.widget.location': { zh_Hans: '位置', en: 'Location' },
  'projectExpand.widget.link': { zh_Hans: '链接', en: 'Link' },
  'projectExpand.widget.region': { zh_Hans: '地区', en: 'Region' },
  'projectExpand.widget.serial': { zh_Hans: '编号', en: 'Number/serial' },
  'projectExpand.widget.rating': { zh_Hans: '星级评分', en: 'Star rating' },
  'projectExpand.widget.richText': { zh_Hans: '富文本', en: 'Rich text' },
  'projectExpand.kind.normal': { zh_Hans: '普通文本', en: 'Normal text' },
  'projectExpand.kind.password': { zh_Hans: '密码', en: 'Password' },
  'projectExpand.kind.serialId': { zh_Hans: '序列号', en: 'Serial id' },
  'projectExpand.kind.formula': { zh_Hans: '公式', en: 'Formula' },
} as const;
export type ProjectExpandMessageKey = keyof typeof PROJECT_EXPAND_MESSAGES;
