import type { Field, FieldType, TableDefinition } from '@gantry/shared';

/**
 * Mapping tables (backups-data-designer.md §4a): a table whose fields follow a source table of the
 * project. The sync step compares the source's fields now with those of the last sync; confirming
 * deletes the mapping table's fields that no longer match (removed or retyped in the source, values
 * and all) and takes the source's new and retyped fields.
 */

export interface SyncChange {
  field: string;
  title: string;
  change: 'added' | 'removed' | 'typeChanged';
  from?: FieldType;
  to?: FieldType;
}

/** What changed in the source's fields since the last sync (`synced`), field by field. */
export function sourceChanges(synced: readonly Field[], now: readonly Field[]): SyncChange[] {
  const before = new Map(synced.map((field) => [field.name, field]));
  const after = new Map(now.map((field) => [field.name, field]));
  const changes: SyncChange[] = [];
  for (const [name, field] of before) {
    const next = after.get(name);
    if (!next) changes.push({ field: name, title: field.title, change: 'removed', from: field.type });
    else if (next.type !== field.type)
      changes.push({ field: name, title: next.title, change: 'typeChanged', from: field.type, to: next.type });
  }
  for (const [name, field] of after)
    if (!before.has(name)) changes.push({ field: name, title: field.title, change: 'added', to: field.type });
  return changes;
}

/** The mapping table's fields the changes leave mismatched: deleted on confirm. */
export function mismatchedFields(definition: TableDefinition, changes: readonly SyncChange[]): string[] {
  const changed = new Set(changes.filter((change) => change.change !== 'added').map((change) => change.field));
  return definition.fields.filter((field) => changed.has(field.name)).map((field) => field.name);
}

/** The definition without the mismatched fields (what the records are migrated to: their values go). */
export function withoutFields(definition: TableDefinition, names: readonly string[]): TableDefinition {
  const gone = new Set(names);
  return { ...definition, fields: definition.fields.filter((field) => !gone.has(field.name)) };
}

/** The definition after the sync: mismatched fields gone, the source's new and retyped fields added. */
export function syncedDefinition(
  definition: TableDefinition,
  changes: readonly SyncChange[],
  source: readonly Field[],
): TableDefinition {
  const pruned = withoutFields(definition, mismatchedFields(definition, changes));
  const present = new Set(pruned.fields.map((field) => field.name));
  const taken = new Set(changes.filter((change) => change.change !== 'removed').map((change) => change.field));
  const added = source.filter((field) => taken.has(field.name) && !present.has(field.name));
  return { ...pruned, fields: [...pruned.fields, ...added] };
}
