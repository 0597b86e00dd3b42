import {
  type ExtensionField,
  PROJECT_WIDGETS,
  type ProjectExpand,
  type ProjectWidget,
  projectExpandSchema,
  TEXT_WIDGET_KINDS,
  type TextWidgetKind,
} from '@gantry/shared';

/** One row of the schema editor: the field, its flags, its options as JSON text. */
export interface FieldRow {
  name?: string;
  title?: string;
  widget?: ProjectWidget;
  kind?: TextWidgetKind;
  required?: boolean;
  editable?: boolean;
  batch?: boolean;
  options?: string;
}

export { PROJECT_WIDGETS, TEXT_WIDGET_KINDS };

export function toRows(expand: ProjectExpand): FieldRow[] {
  return expand.schema.fields.map((field) => ({
    name: field.name,
    title: field.title,
    widget: field.widget,
    kind: field.kind,
    required: field.required,
    editable: expand.editableFields.includes(field.name),
    batch: expand.batchChangeFields.includes(field.name),
    options: Object.keys(field.options).length > 0 ? JSON.stringify(field.options) : '',
  }));
}

/**
 * The rows as settings.projectExpand, checked by the shared schema (the server's check); problems by
 * row path (`fields.<i>.<name|title|options>`).
 */
export function fromRows(
  rows: FieldRow[],
  form: Record<string, unknown>,
): { ok: true; expand: ProjectExpand } | { ok: false; fields: Record<string, string> } {
  const problems: Record<string, string> = {};
  const fields = rows.map((row, index): Partial<ExtensionField> => {
    let options: Record<string, unknown> = {};
    if (row.options?.trim()) {
      try {
        options = JSON.parse(row.options) as Record<string, unknown>;
      } catch {
        problems[`fields.${index}.options`] = 'projectExpand.ui.invalidJson';
      }
    }
    return {
      name: row.name?.trim() ?? '',
      title: row.title?.trim() ?? '',
      widget: row.widget ?? 'text',
      kind: row.widget === 'text' ? (row.kind ?? 'normal') : 'normal',
      required: row.required === true,
      options,
    };
  });
  if (Object.keys(problems).length > 0) return { ok: false, fields: problems };
  const names = (flag: 'editable' | 'batch') =>
    rows.flatMap((row) => (row[flag] && row.name?.trim() ? [row.name.trim()] : []));
  const parsed = projectExpandSchema.safeParse({
    schema: { fields },
    form,
    editableFields: names('editable'),
    batchChangeFields: names('batch'),
  });
  if (parsed.success) return { ok: true, expand: parsed.data };
  return {
    ok: false,
    fields: rowProblems(
      parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })),
      rows,
    ),
  };
}

/**
 * Problems of projectExpand (the schema's or the server's `projectExpand.…` paths) by editor row; an
 * entry of editableFields / batchChangeFields is the n-th row with that flag.
 */
export function rowProblems(
  issues: Array<{ path: string[]; message: string }>,
  rows: FieldRow[],
): Record<string, string> {
  const out: Record<string, string> = {};
  const flagged = (flag: 'editable' | 'batch', n: number) =>
    rows.map((row, index) => (row[flag] ? index : -1)).filter((index) => index >= 0)[n] ?? 0;
  for (const { path, message } of issues) {
    const at = path[0] === 'projectExpand' ? path.slice(1) : path;
    let key: string;
    if (at[0] === 'schema' && at[1] === 'fields')
      key = `fields.${at[2]}.${at[3] === 'options' ? 'options' : (at[3] ?? 'name')}`;
    else {
      const flag = at[0] === 'batchChangeFields' ? 'batch' : 'editable';
      key = `fields.${flagged(flag, Number(at[1] ?? 0))}.${flag}`;
    }
    out[key] ??= message;
  }
  return out;
}
