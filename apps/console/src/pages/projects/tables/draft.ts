import {
  type CommonFieldProperties,
  FIELD_REGISTRY,
  type Field,
  type FieldType,
  type PermissionRule,
  type TableDefinition,
  tableDefinition,
} from '@gantry/shared';

/** What the designer edits: the draft definition (the server stays the authority on save). */
export type Draft = TableDefinition;
export type PermissionKind = keyof TableDefinition['permissions'];

/** A type's options as the registry's schema fills them from nothing (or nothing where it needs input). */
export function initialOptions(type: FieldType): Record<string, unknown> {
  if (type === 'select' || type === 'multiSelect') return { options: [{ value: 'a', label: 'A' }] };
  if (type === 'subTable') return { fields: [], noDuplicateRows: false };
  if (type === 'formula') return { expression: '1', result: 'number' };
  const parsed = FIELD_REGISTRY[type].options.safeParse({});
  if (!parsed.success) return {};
  const options: Record<string, unknown> = { ...parsed.data };
  return options;
}

/** A new field of `type` with the common properties' defaults. */
export function newField(type: FieldType, name: string, title: string): Field {
  return {
    name,
    title,
    type,
    descriptionDisplay: 'tooltip',
    required: false,
    readOnly: false,
    unique: false,
    showOnCreate: true,
    showOnEdit: true,
    showInList: true,
    editableInList: false,
    batchEdit: false,
    showInFilter: false,
    dedupeFilterOptions: false,
    sortable: false,
    options: initialOptions(type),
  } as Field;
}

/** A field changed to another type keeps its common properties and starts with that type's options. */
export function retype(field: Field, type: FieldType): Field {
  return { ...field, type, options: initialOptions(type) } as Field;
}

/** A field with some of its common properties changed. */
export function withProperties(field: Field, change: Partial<CommonFieldProperties>): Field {
  return { ...field, ...change };
}

/** `list` with the item at `from` moved to `to`. */
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= list.length || to >= list.length) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

export const EVERYBODY: PermissionRule = { who: 'all', ids: [], records: 'all' };

/**
 * The designer's client check of a draft: the shared table schema (the same rules the server runs on
 * save), as message keys by path (`fields.2.name`). Messages the schema gives without a key of ours
 * become the generic 'field.options'.
 */
export function draftProblems(draft: unknown): Record<string, string> {
  const parsed = tableDefinition.safeParse(draft);
  if (parsed.success) return {};
  const problems: Record<string, string> = {};
  for (const issue of specific(parsed.error.issues, [])) {
    const path = issue.path.map(String).join('.');
    const message = /^(field|table|value)\.[A-Za-z]+$/.test(issue.message) ? issue.message : 'field.options';
    problems[path || '_'] ??= message;
  }
  return problems;
}

interface Issue {
  path: PropertyKey[];
  message: string;
  code?: string;
  errors?: Issue[][];
}

/**
 * A field is a union (a column or a sub-table): its issues come as one list per branch. The branch of
 * the field's own type (no issue on `type`) says which option is wrong.
 */
function specific(issues: readonly Issue[], at: PropertyKey[]): Issue[] {
  return issues.flatMap((issue) => {
    const path = [...at, ...issue.path];
    if (issue.code !== 'invalid_union' || !issue.errors) return [{ ...issue, path }];
    const branch = issue.errors.find(
      (list) => !list.some((inner) => inner.path.length === 1 && inner.path[0] === 'type'),
    );
    return branch && branch.length > 0 ? specific(branch, path) : [{ ...issue, path }];
  });
}

/** The problems of one field (by the key under it: `name`, `options.max`…). */
export function problemsUnder(problems: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(problems)) {
    if (path === prefix) out._ = message;
    else if (path.startsWith(`${prefix}.`)) out[path.slice(prefix.length + 1)] = message;
  }
  return out;
}

/** Where a problem is, in words a user knows: the field (or sub-table column) by title and identifier, the option or rule by number. */
export interface ProblemPlace {
  field?: string;
  option?: number;
  rule?: number;
}

/** The place of the problem at `path` (`fields.3.options.options.2.color`) in `draft`. */
export function problemPlace(draft: Pick<Draft, 'fields'>, path: string): ProblemPlace {
  const parts = path.split('.');
  if (parts[0] === 'rules' && parts[1] !== undefined) return { rule: Number(parts[1]) + 1 };
  if (parts[0] !== 'fields' || parts[1] === undefined) return {};
  let fields: readonly Field[] = draft.fields;
  let field = fields[Number(parts[1])];
  let rest = parts.slice(2);
  const names: string[] = [];
  while (field) {
    names.push(field.title ? `${field.title} (${field.name})` : field.name);
    // a sub-table's column: options.fields.N
    if (rest[0] === 'options' && rest[1] === 'fields' && rest[2] !== undefined && field.type === 'subTable') {
      fields = field.options.fields;
      field = fields[Number(rest[2])];
      rest = rest.slice(3);
      continue;
    }
    break;
  }
  const place: ProblemPlace = names.length > 0 ? { field: names.join(' / ') } : {};
  if (rest[0] === 'options' && rest[1] === 'options' && rest[2] !== undefined) place.option = Number(rest[2]) + 1;
  return place;
}
