import {
  asRegistryField,
  checkValues,
  type Field,
  type FieldMessageKey,
  type MessageKey,
  type ProjectExpand,
  stableJson,
  type ValueProblem,
} from '@gantry/shared';
import type { Database } from '../../db/database.js';
import { AppError, type FieldMessage } from '../../lib/app-error.js';
import { compileFormula, formulaProblem, formulaValue } from '../tables/formula.js';
import { autoNumberText } from '../tables/table.service.js';
import { nextProjectSerial } from './project.repository.js';

/**
 * A project's extension values (`extra`) against the extension schema of settings/project
 * (console.md §2; shared/project-expand.ts): the registry's value checks, required fields, fields not
 * editable kept as they were, serial ids and serial numbers given by the server on create, formulas
 * computed on every save. Without any extension field `extra` stays free-form (what projects made
 * before the schema, templates and imports carry).
 */

export type ExpandMode = 'create' | 'update' | 'batch';

function expandError(problems: Array<{ path: string; message: MessageKey; params?: Record<string, string | number> }>) {
  const fields: Record<string, MessageKey | FieldMessage> = {};
  for (const problem of problems) {
    const path = `extra.${problem.path}`;
    if (fields[path]) continue;
    fields[path] = problem.params ? { key: problem.message, params: problem.params } : problem.message;
  }
  return new AppError('projectExpandInvalid', { fields });
}

/**
 * The extension schema's formulas compiled as a save of settings/project would store them: one that
 * cannot compile (syntax, a function not allowed, a field the schema does not have) is refused with
 * the table designer's messages, instead of silently giving every project no value.
 */
export async function checkExpandFormulas(expand: ProjectExpand): Promise<void> {
  const definitions = expand.schema.fields;
  const names = new Set(definitions.map((field) => field.name));
  const fields: Record<string, FieldMessage> = {};
  for (const [index, definition] of definitions.entries()) {
    const field = asRegistryField(definition);
    if (field.type !== 'formula') continue;
    const path = `projectExpand.schema.fields.${index}.options.expression`;
    try {
      await compileFormula(field.options.expression, names);
    } catch (error) {
      const problem = formulaProblem(error, field.name);
      if (!problem) throw error;
      fields[path] = problem;
    }
  }
  if (Object.keys(fields).length > 0) throw new AppError('validation', { fields });
}

/**
 * The `extra` to store for a save: `given` checked against the schema (none: stored as given).
 * `previous`: the stored values (update and batch). Batch may set only batch-changeable fields; update
 * may change only editable ones. Undefined: leave them as they are.
 */
export async function expandValues(
  expand: ProjectExpand | undefined,
  given: Record<string, unknown> | undefined,
  previous: Record<string, unknown> | undefined,
  mode: ExpandMode,
  tx: Database,
  now: Date,
): Promise<Record<string, unknown> | undefined> {
  if (!expand) return given;
  const definitions = expand.schema.fields;
  if (definitions.length === 0) {
    if (mode !== 'batch') return mode === 'create' ? given : (given ?? previous);
    throw expandError(Object.keys(given ?? {}).map((path) => ({ path, message: 'project.expandNotBatch' })));
  }
  const fields = definitions.map(asRegistryField);
  const byName = new Map(fields.map((field) => [field.name, field]));
  const input = given ?? {};
  const problems: ValueProblem[] = [];
  const refused = (name: string, message: FieldMessageKey | MessageKey) =>
    problems.push({ path: name, message: message as FieldMessageKey });
  if (mode !== 'create') {
    const allowed = new Set(mode === 'batch' ? expand.batchChangeFields : expand.editableFields);
    for (const [name, value] of Object.entries(input)) {
      const field = byName.get(name);
      if (!field || allowed.has(name)) continue;
      if (mode === 'batch') refused(name, 'project.expandNotBatch');
      else if (stableJson(value) !== stableJson(previous?.[name] ?? null) && !isComputed(field))
        refused(name, 'project.expandNotEditable');
    }
  }
  // Values the server sets are not the client's to give (kept as they were on update).
  const clientInput = Object.fromEntries(
    Object.entries(input).filter(([name]) => {
      const field = byName.get(name);
      return !field || !isComputed(field);
    }),
  );
  const { values, problems: valueProblems } = checkValues(
    fields,
    clientInput,
    mode === 'create' ? 'create' : 'update',
    previous,
  );
  problems.push(...valueProblems.filter((problem) => !problems.some((p) => p.path === problem.path)));
  if (problems.length > 0) throw expandError(problems);

  const result: Record<string, unknown> = mode === 'create' ? {} : { ...(previous ?? {}) };
  for (const [name, value] of Object.entries(values)) {
    if (value === null) delete result[name];
    else result[name] = value;
  }
  if (mode === 'create') {
    for (const field of fields) {
      if (field.type !== 'autoNumber') continue;
      result[field.name] = autoNumberText(field.options, await nextProjectSerial(tx, field.name, field.options), now);
    }
  }
  return withFormulas(fields, result);
}

function isComputed(field: Field): boolean {
  return field.type === 'autoNumber' || field.type === 'formula';
}

/** Formulas in field order over the project's values; one that fails leaves no value. */
async function withFormulas(fields: Field[], values: Record<string, unknown>): Promise<Record<string, unknown>> {
  const names = new Set(fields.map((field) => field.name));
  const next = { ...values };
  for (const field of fields) {
    if (field.type !== 'formula') continue;
    let value: unknown = null;
    try {
      value = formulaValue(await compileFormula(field.options.expression, names), field.options, next);
    } catch {
      value = null;
    }
    if (value === null) delete next[field.name];
    else next[field.name] = value;
  }
  return next;
}
