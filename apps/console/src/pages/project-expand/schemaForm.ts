import {
  type ExtensionField,
  PROJECT_WIDGETS,
  type ProjectExpand,
  type ProjectWidget,
  projectExpandSchema,
  TEXT_WIDGET_KINDS,
  type TextWidgetKind,
} from '@gantry/shared';

/** One choice of a selector, as the editor's rows show it. */
export interface ChoiceRow {
  value?: string;
  label?: string;
}

/**
 * One row of the schema editor: the field, its flags; a selector's choices as rows (value, label)
 * and whether several may be chosen; any other settings of its type as a JSON object.
 */
export interface FieldRow {
  name?: string;
  title?: string;
  widget?: ProjectWidget;
  kind?: TextWidgetKind;
  required?: boolean;
  editable?: boolean;
  batch?: boolean;
  choices?: ChoiceRow[];
  multiple?: boolean;
  options?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A selector's choices from its options (`options.options`). */
function choicesOf(options: Record<string, unknown>): ChoiceRow[] {
  const list = Array.isArray(options.options) ? options.options : [];
  return list.filter(isRecord).map((choice) => ({
    value: typeof choice.value === 'string' ? choice.value : '',
    label: typeof choice.label === 'string' ? choice.label : '',
  }));
}

export { PROJECT_WIDGETS, TEXT_WIDGET_KINDS };

export function toRows(expand: ProjectExpand): FieldRow[] {
  return expand.schema.fields.map((field) => {
    const selector = field.widget === 'selector';
    const { options: _choices, multiple, ...rest } = field.options;
    const other = selector ? rest : field.options;
    return {
      name: field.name,
      title: field.title,
      widget: field.widget,
      kind: field.kind,
      required: field.required,
      editable: expand.editableFields.includes(field.name),
      batch: expand.batchChangeFields.includes(field.name),
      ...(selector ? { choices: choicesOf(field.options), multiple: multiple === true } : {}),
      options: Object.keys(other).length > 0 ? JSON.stringify(other) : '',
    };
  });
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
        const parsed: unknown = JSON.parse(row.options);
        if (isRecord(parsed)) options = parsed;
        else problems[`fields.${index}.options`] = 'projectExpand.ui.optionsObject';
      } catch {
        problems[`fields.${index}.options`] = 'projectExpand.ui.invalidJson';
      }
    }
    if (row.widget === 'selector') {
      options = {
        ...options,
        options: (row.choices ?? []).map((choice) => ({
          value: choice.value?.trim() ?? '',
          ...(choice.label?.trim() ? { label: choice.label.trim() } : {}),
        })),
        ...(row.multiple ? { multiple: true } : {}),
      };
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
      key = `fields.${at[2]}.${fieldColumn(at.slice(3), rows[Number(at[2])])}`;
    else {
      const flag = at[0] === 'batchChangeFields' ? 'batch' : 'editable';
      key = `fields.${flagged(flag, Number(at[1] ?? 0))}.${flag}`;
    }
    out[key] ??= message;
  }
  return out;
}

/**
 * The editor's column of a problem within one field (`name`, `options`, `choices.2.value`…): a
 * selector's choices are rows of their own; a selector without any has the problem on its widget.
 */
function fieldColumn(at: string[], row: FieldRow | undefined): string {
  if (at[0] !== 'options') return at[0] ?? 'name';
  if (row?.widget === 'selector' && at[1] === 'options') {
    if (at[2] === undefined) return 'widget';
    return `choices.${at[2]}.${at[3] === 'label' ? 'label' : 'value'}`;
  }
  return 'options';
}
