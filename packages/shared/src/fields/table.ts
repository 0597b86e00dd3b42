import { z } from 'zod';
import { identifierProblem } from './identifier.js';
import type { FieldMessageKey } from './messages.js';
import { FIELD_LIMITS, FIELD_REGISTRY, FIELD_TYPES, type FieldOptions, type FieldType } from './registry.js';

/**
 * A table's definition (backups-data-designer.md §4a "Table definition", "Common field properties")
 * and the designer's checks (§5 "Table designer"). A table document holds a draft and a published
 * definition of this shape.
 */

export const TABLE_LIMITS = {
  name: 64,
  title: 100,
  fields: 300,
  rules: 200,
  permissions: 50,
  uniqueTogether: 10,
} as const;

const script = z.string().max(FIELD_LIMITS.script).optional();

/** §4a common field properties: every type has them. */
export const commonFieldProperties = z.strictObject({
  /** The identifier: the record's key (checked by `identifierProblem`). */
  name: z.string().max(200),
  title: z.string().trim().min(1, { error: 'field.titleRequired' }).max(100),
  description: z.string().max(1000).optional(),
  /** How the description is shown. */
  descriptionDisplay: z.enum(['tooltip', 'below', 'placeholder']).default('tooltip'),
  required: z.boolean().default(false),
  readOnly: z.boolean().default(false),
  /** No duplicates: no two records of the table share a value. */
  unique: z.boolean().default(false),
  showOnCreate: z.boolean().default(true),
  showOnEdit: z.boolean().default(true),
  showInList: z.boolean().default(true),
  editableInList: z.boolean().default(false),
  batchEdit: z.boolean().default(false),
  showInFilter: z.boolean().default(false),
  /** The filter offers the distinct values found (dedupe filter options). */
  dedupeFilterOptions: z.boolean().default(false),
  sortable: z.boolean().default(false),
  width: z.number().int().min(40).max(2000).optional(),
  fixed: z.enum(['left', 'right']).optional(),
  /** Scripts of the form (run by the client's form, never by the server). */
  fieldScript: script,
  renderScript: script,
  validateScript: script,
});
export type CommonFieldProperties = z.output<typeof commonFieldProperties>;

type FieldOf<T extends FieldType> = CommonFieldProperties & { type: T; options: FieldOptions<T> };
type SubTableOptions = Omit<FieldOptions<'subTable'>, 'fields'> & { fields: ColumnField[] };
/** A field of a sub-table: any type but a sub-table. */
export type ColumnField = { [T in Exclude<FieldType, 'subTable'>]: FieldOf<T> }[Exclude<FieldType, 'subTable'>];
export type SubTableField = CommonFieldProperties & { type: 'subTable'; options: SubTableOptions };
export type Field = ColumnField | SubTableField;

function variant<T extends FieldType>(type: T, options: z.ZodType = FIELD_REGISTRY[type].options) {
  return commonFieldProperties.extend({ type: z.literal(type), options: options.prefault({}) });
}

const [firstColumnVariant, ...columnVariants] = FIELD_TYPES.filter((type) => type !== 'subTable').map((type) =>
  variant(type),
);
if (!firstColumnVariant) throw new Error('the field registry has no column type');

/** Zod cannot follow each type to its own options: the union's output says which options go with which type. */
const columnField = z.discriminatedUnion('type', [firstColumnVariant, ...columnVariants]) as z.ZodType<ColumnField>;

const subTableOptions = FIELD_REGISTRY.subTable.options
  .extend({ fields: z.array(columnField).min(1).max(FIELD_LIMITS.subTableFields) })
  .superRefine((o, ctx) => {
    if (o.minRows !== undefined && o.maxRows !== undefined && o.maxRows < o.minRows)
      ctx.addIssue({ code: 'custom', path: ['maxRows'], message: 'field.subTableMaxBelowMin' });
  });

export const fieldSchema = z.union([
  columnField,
  variant('subTable', subTableOptions) as z.ZodType<SubTableField>,
]) as z.ZodType<Field>;

export const RULE_TRIGGERS = ['create', 'edit', 'always'] as const;
export const RULE_HINTS = ['toast', 'field', 'dialog'] as const;
export const RULE_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'empty', 'notEmpty'] as const;

/**
 * A field rule with its error hint (§4a "field rules", §5): when the record's `field` meets the
 * condition, the write is refused with `content`. Every part must be filled (the designer's check).
 */
export const fieldRule = z.strictObject({
  trigger: z.enum(RULE_TRIGGERS).optional(),
  hint: z.enum(RULE_HINTS).optional(),
  field: z.string().max(64).optional(),
  operator: z.enum(RULE_OPERATORS).default('eq'),
  value: z.union([z.string().max(1000), z.number(), z.boolean()]).optional(),
  content: z.string().max(500).optional(),
});
export type FieldRule = z.output<typeof fieldRule>;

/**
 * §4a record permissions. A configuration says whom it applies to (everybody, specific users,
 * departments or roles) and which records they reach (all, their own, their department's, their
 * department's and its sub-departments', their role's, or none). A table's view, add and manage lists
 * are evaluated top to bottom: the first configuration that applies to a user decides; none: no access.
 * Manage is limited by view.
 */
export const PERMISSION_SUBJECTS = ['all', 'users', 'departments', 'roles'] as const;
export const PERMISSION_SCOPES = ['all', 'self', 'department', 'departmentTree', 'role', 'none'] as const;
export type PermissionScope = (typeof PERMISSION_SCOPES)[number];
export const permissionRule = z.strictObject({
  who: z.enum(PERMISSION_SUBJECTS).default('all'),
  /** The users, departments or roles the configuration applies to (`who` other than all). */
  ids: z.array(z.string().min(1).max(128)).max(500).default([]),
  records: z.enum(PERMISSION_SCOPES).default('all'),
});
export type PermissionRule = z.output<typeof permissionRule>;
const permissionList = z
  .array(permissionRule)
  .max(TABLE_LIMITS.permissions)
  .default([{ who: 'all', ids: [], records: 'all' }]);

export const tableDefinition = z
  .strictObject({
    fields: z.array(fieldSchema).max(TABLE_LIMITS.fields).default([]),
    /** An internal table keeps its own records; a non-internal one maps an outside source by its associated field. */
    internal: z.boolean().default(true),
    associatedField: z.string().max(64).optional(),
    /** Fields whose values together may not repeat (§5: rows with identical selected fields are not allowed). */
    uniqueTogether: z.array(z.string().max(64)).max(TABLE_LIMITS.uniqueTogether).default([]),
    rules: z.array(fieldRule).max(TABLE_LIMITS.rules).default([]),
    /** Record permissions: view, add and manage, each evaluated top to bottom. */
    permissions: z.strictObject({ view: permissionList, add: permissionList, manage: permissionList }).prefault({}),
    /** List config: page size and default order (the columns are the fields' list properties). */
    list: z
      .strictObject({
        pageSize: z.number().int().min(1).max(1000).default(20),
        sortField: z.string().max(64).optional(),
        sortOrder: z.union([z.literal(1), z.literal(-1)]).default(-1),
      })
      .prefault({}),
    /** Display config and record detail config: kept for the console, not read by the server. */
    display: z.record(z.string(), z.unknown()).default({}),
    detail: z.record(z.string(), z.unknown()).default({}),
  })
  .superRefine((definition, ctx) => {
    for (const problem of definitionProblems(definition)) ctx.addIssue({ code: 'custom', ...problem });
  });
export type TableDefinition = z.output<typeof tableDefinition>;

export interface DefinitionProblem {
  path: Array<string | number>;
  message: FieldMessageKey;
}

/** §5 table designer checks the field schemas do not make on their own (identifiers, references, rules). */
export function definitionProblems(definition: Omit<TableDefinition, 'display' | 'detail'>): DefinitionProblem[] {
  const problems: DefinitionProblem[] = [];
  const checkNames = (fields: readonly Field[], at: Array<string | number>) => {
    const seen = new Set<string>();
    fields.forEach((field, index) => {
      const problem = identifierProblem(field.name, field.type === 'text');
      if (problem) problems.push({ path: [...at, index, 'name'], message: problem });
      else if (seen.has(field.name)) problems.push({ path: [...at, index, 'name'], message: 'table.fieldDuplicate' });
      seen.add(field.name);
      if (field.type === 'subTable') checkNames(field.options.fields, [...at, index, 'options', 'fields']);
    });
  };
  checkNames(definition.fields, ['fields']);
  const byName = new Map(definition.fields.map((field) => [field.name, field]));
  if (!definition.internal && (!definition.associatedField || !byName.has(definition.associatedField)))
    problems.push({ path: ['associatedField'], message: 'table.associatedField' });
  definition.uniqueTogether.forEach((name, index) => {
    if (!byName.has(name)) problems.push({ path: ['uniqueTogether', index], message: 'table.unknownField' });
  });
  definition.fields.forEach((field, index) => {
    if (field.type === 'lookup' && byName.get(field.options.relation)?.type !== 'relation')
      problems.push({ path: ['fields', index, 'options', 'relation'], message: 'table.lookupRelation' });
  });
  definition.rules.forEach((rule, index) => {
    if (!rule.trigger || !rule.hint || !rule.field || !rule.content?.trim())
      problems.push({ path: ['rules', index], message: 'table.ruleIncomplete' });
    else if (!byName.has(rule.field)) problems.push({ path: ['rules', index, 'field'], message: 'table.unknownField' });
  });
  if (definition.list.sortField !== undefined && !byName.has(definition.list.sortField))
    problems.push({ path: ['list', 'sortField'], message: 'table.unknownField' });
  return problems;
}

/** §5 "Table name cannot be empty". */
export const tableName = z
  .string({ error: 'table.nameRequired' })
  .trim()
  .min(1, { error: 'table.nameRequired' })
  .max(TABLE_LIMITS.name, { error: 'table.nameTooLong' });
