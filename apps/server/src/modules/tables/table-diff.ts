import { checkValues, type Field, type FieldType, isComputed, stableJson, type TableDefinition } from '@gantry/shared';

/**
 * What publishing a draft changes (backups-data-designer.md §2 "update publish"): the fields added,
 * removed, retyped or reconfigured, and what that does to the values existing records hold: kept,
 * converted to the new type, or dropped.
 */

export type ChangeKind = 'added' | 'removed' | 'typeChanged' | 'optionsChanged';

export interface FieldChange {
  field: string;
  title: string;
  change: ChangeKind;
  from?: FieldType;
  to?: FieldType;
  /** Records holding a value of the field. */
  values: number;
  /** Values that become the new type's value (removed fields: none). */
  converted: number;
  /** Values lost: the field is removed, or a value fits neither as it is nor converted. */
  dropped: number;
}

export interface TableDiff {
  changes: FieldChange[];
  /** Other changes of the definition (rules, permissions, list, display…), by top-level key. */
  settingsChanged: string[];
}

const SETTINGS = [
  'internal',
  'associatedField',
  'uniqueTogether',
  'rules',
  'permissions',
  'list',
  'display',
  'detail',
] as const;

export function diffDefinitions(published: TableDefinition | null, draft: TableDefinition): TableDiff {
  const before = new Map((published?.fields ?? []).map((field) => [field.name, field]));
  const after = new Map(draft.fields.map((field) => [field.name, field]));
  const changes: FieldChange[] = [];
  const counts = { values: 0, converted: 0, dropped: 0 };
  for (const [name, field] of before) {
    const next = after.get(name);
    if (!next) changes.push({ field: name, title: field.title, change: 'removed', from: field.type, ...counts });
    else if (next.type !== field.type)
      changes.push({
        field: name,
        title: next.title,
        change: 'typeChanged',
        from: field.type,
        to: next.type,
        ...counts,
      });
    else if (stableJson(next.options) !== stableJson(field.options) || next.required !== field.required)
      changes.push({
        field: name,
        title: next.title,
        change: 'optionsChanged',
        from: field.type,
        to: next.type,
        ...counts,
      });
  }
  for (const [name, field] of after) {
    if (!before.has(name))
      changes.push({ field: name, title: field.title, change: 'added', to: field.type, ...counts });
  }
  const settingsChanged = SETTINGS.filter((key) => !published || stableJson(published[key]) !== stableJson(draft[key]));
  return { changes, settingsChanged };
}

/** A stored value under the new field: kept as it is, converted, or dropped. */
export function convertValue(
  value: unknown,
  field: Field,
): { outcome: 'kept' | 'converted' | 'dropped'; value?: unknown } {
  if (isComputed(field)) return { outcome: 'dropped' };
  const fits = (candidate: unknown) => checkValues([field], { [field.name]: candidate }, 'create', undefined);
  const asIs = fits(value);
  if (asIs.problems.length === 0) return { outcome: 'kept', value: asIs.values[field.name] };
  for (const candidate of candidates(value)) {
    const converted = fits(candidate);
    if (converted.problems.length === 0) return { outcome: 'converted', value: converted.values[field.name] };
  }
  return { outcome: 'dropped' };
}

function candidates(value: unknown): unknown[] {
  const out: unknown[] = [];
  if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (trimmed !== '' && Number.isFinite(Number(trimmed))) out.push(Number(trimmed));
    if (trimmed === 'true' || trimmed === 'false') out.push(trimmed === 'true');
    out.push([value]);
  }
  if (typeof value === 'number') out.push(Math.round(value), value !== 0);
  if (Array.isArray(value)) {
    if (value.length === 1) out.push(value[0]);
    if (value.every((item) => typeof item === 'string')) out.push(value.join(','));
  }
  return out;
}

/**
 * One record's data under the new definition: removed fields gone, changed fields converted or
 * dropped; counts added to `changes`.
 */
export function migrateData(
  data: Record<string, unknown>,
  changes: FieldChange[],
  draft: TableDefinition,
): Record<string, unknown> {
  const next = { ...data };
  const byName = new Map(draft.fields.map((field) => [field.name, field]));
  for (const change of changes) {
    if (change.change === 'added' || !Object.hasOwn(data, change.field)) continue;
    const value = data[change.field];
    if (value === null || value === undefined) continue;
    const field = byName.get(change.field);
    // A computed field keeps its values when only its options change (formulas are recomputed apart).
    if (field && change.change === 'optionsChanged' && isComputed(field)) continue;
    change.values += 1;
    if (!field) {
      change.dropped += 1;
      delete next[change.field];
      continue;
    }
    const converted = convertValue(value, field);
    if (converted.outcome === 'dropped') {
      change.dropped += 1;
      delete next[change.field];
    } else {
      if (converted.outcome === 'converted') change.converted += 1;
      next[change.field] = converted.value;
    }
  }
  return next;
}
