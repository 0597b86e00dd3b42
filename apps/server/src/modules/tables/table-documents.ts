import {
  type Field,
  isRecord,
  type TableDefinition,
  tableCreateBody,
  tableDefinition,
  tableName,
} from '@gantry/shared';

/**
 * The stored shapes of the designer's documents in `project_documents` and their readers: the one
 * place where a `doc` column (a JSON object of any shape) becomes a typed table or record. Writes
 * take these types; reads check them here (docs/DECISIONS.md, "Structure").
 */

/** A table document's `doc`. */
export type TableDoc = {
  name: string;
  title?: string;
  /** The definition being designed (saved by "save draft"). */
  draft: TableDefinition;
  /** Bumped by every draft save: a publish names the draft it was shown. */
  draftVersion: number;
  /** The definition records follow; null until the first publish. */
  published: TableDefinition | null;
  /** Bumped by every publish. */
  version: number;
  publishedAt?: string;
  /** Auto-number counters: the last number given, per field. */
  counters?: Record<string, number>;
  createdBy?: string;
  /** A mapping table (§4a): the source table its fields follow, and the source's fields at the last sync. */
  mapping?: TableMapping;
};

/** What a mapping table follows: its source table (same project) and that table's fields when last synced. */
export type TableMapping = {
  source: string;
  /** The source's published fields at the last sync (the sync step compares the source with them). */
  fields: Field[];
  /** The source's published version at the last sync. */
  sourceVersion: number;
  syncedAt: string;
};

/** A record document's `doc`. */
export type RecordDoc = {
  table: string;
  data: Record<string, unknown>;
  createdBy?: string;
  updatedBy?: string;
  /** The creator's department and roles when a project user created it (record permissions). */
  createdDept?: string;
  createdRoles?: string[];
};

/**
 * A definition as `tableDefinition` (packages/shared) wrote it: every write of one goes through that
 * schema, so the read checks its frame (the lists and objects every reader walks), not each field
 * again (a table has up to 300, read on every record write).
 */
function isDefinition(value: unknown): value is TableDefinition {
  return (
    isRecord(value) &&
    Array.isArray(value.fields) &&
    Array.isArray(value.rules) &&
    Array.isArray(value.uniqueTogether) &&
    typeof value.internal === 'boolean' &&
    isRecord(value.permissions) &&
    isRecord(value.list)
  );
}

const isOptional = (value: unknown, is: (value: unknown) => boolean) => value === undefined || is(value);
const isString = (value: unknown) => typeof value === 'string';
const isCounters = (value: unknown) =>
  isRecord(value) && Object.values(value).every((count) => typeof count === 'number');

const isMapping = (value: unknown) =>
  isRecord(value) &&
  typeof value.source === 'string' &&
  Array.isArray(value.fields) &&
  typeof value.sourceVersion === 'number' &&
  typeof value.syncedAt === 'string';

/**
 * Whether a `table` document is one of the designer: other documents of the collection (a template's
 * plain table description, one written through the data API) are no designer table.
 */
export function isTableDoc(doc: Record<string, unknown>): doc is TableDoc {
  return (
    typeof doc.name === 'string' &&
    isOptional(doc.title, isString) &&
    isDefinition(doc.draft) &&
    typeof doc.draftVersion === 'number' &&
    (doc.published === null || isDefinition(doc.published)) &&
    typeof doc.version === 'number' &&
    isOptional(doc.publishedAt, isString) &&
    isOptional(doc.counters, isCounters) &&
    isOptional(doc.createdBy, isString) &&
    isOptional(doc.mapping, isMapping)
  );
}

const isNames = (value: unknown) => Array.isArray(value) && value.every(isString);

/**
 * Whether a record document has the designer's shape. Records are selected by `doc.table`, which only
 * the designer writes (the data API refuses such documents): another shape is a damaged database.
 */
export function isRecordDoc(doc: Record<string, unknown>): doc is RecordDoc {
  return (
    typeof doc.table === 'string' &&
    isRecord(doc.data) &&
    isOptional(doc.createdBy, isString) &&
    isOptional(doc.updatedBy, isString) &&
    isOptional(doc.createdDept, isString) &&
    isOptional(doc.createdRoles, isNames)
  );
}

/**
 * A `table` document as the designer shows it. One it did not write (a template's plain table
 * description, an older backup's, the demo's of before) is still one of the project's tables, counted
 * by the licence (`licence/project-measures.ts`): the designer lists it as a table with an empty draft,
 * named by its `name` when that is a valid table name (else its id), its other keys kept, so the
 * designer, the detail and the dashboard show one count. Designing it makes it the designer's.
 */
export function tableDocOf(doc: Record<string, unknown>, id: string): TableDoc {
  if (isTableDoc(doc)) return doc;
  const { title, publishedAt: _publishedAt, createdBy: _createdBy, ...kept } = doc;
  const name = tableName.safeParse(doc.name);
  const shown = tableCreateBody.shape.title.safeParse(title);
  return {
    ...kept,
    name: name.success ? name.data : id,
    ...(shown.success && shown.data ? { title: shown.data } : {}),
    draft: tableDefinition.parse({}),
    draftVersion: 0,
    published: null,
    version: 0,
    counters: {},
  };
}
