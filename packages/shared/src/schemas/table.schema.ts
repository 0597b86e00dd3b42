import { z } from 'zod';
import { tableName } from '../fields/table.js';

/**
 * The table designer's calls (`rest/spm/tables…`, issue 16) and the back office's record calls: what
 * they take and what they answer. Stored documents (a definition, a record's values) are answered as
 * stored, every key in its stored order: their schemas are records of unknown values, not the
 * designer's `tableDefinition` (which would reorder keys and fill defaults).
 */

const tableTitle = z.string().trim().max(100).optional();
/** A table or record id. */
const documentId = z.string().min(1).max(128);

export const tableParams = z.object({ id: documentId });
export const tableRecordParams = tableParams.extend({ recordId: documentId });

/** `POST tables`: a new table with an empty draft. */
export const tableCreateBody = z.object({
  name: tableName,
  title: tableTitle,
  /** A mapping table (§4a): its fields follow this published table of the project. */
  source: documentId.optional(),
});
/** `PATCH tables/{id}`: rename. */
export const tableRenameBody = z.object({ name: tableName.optional(), title: tableTitle });
/** `PUT tables/{id}/draft`: the whole definition, checked by the service (`tableDefinition`, each problem named). */
export const tableDraftBody = z.record(z.string(), z.unknown());
/** `POST tables/{id}/publish`: the draft version the caller was shown. */
export const tablePublishBody = z.object({ draftVersion: z.number().int().min(1).optional() }).optional();
/** A record's values by field name, checked by the service against the published definition. */
export const recordValuesBody = z.record(z.string(), z.unknown());
/** `PATCH tables/{id}/records`: the same values (batch-edit fields only) to every record named. */
export const recordBatchBody = z.object({ ids: z.array(documentId).min(1).max(1000), values: recordValuesBody });

/** `POST tables/{id}/shift`: the project of the same owner the table (with its records) goes to; copy keeps it here too. */
export const tableShiftBody = z.object({
  project: z.string().trim().min(1).max(64),
  mode: z.enum(['copy', 'move']),
});
export type TableShiftBody = z.output<typeof tableShiftBody>;

/** A definition as stored (draft or published). */
const storedDefinition = z.record(z.string(), z.unknown());

/** A table: its definitions, its state, its versions. */
export const tableView = z.object({
  id: z.string(),
  name: z.string(),
  title: z.string().nullable(),
  state: z.enum(['published', 'draft']),
  /** The draft differs from the published definition (an update publish is pending). */
  unpublishedChanges: z.boolean(),
  draft: storedDefinition,
  draftVersion: z.number(),
  published: storedDefinition.nullable(),
  version: z.number(),
  publishedAt: z.string().nullable(),
  /** A mapping table's source and the source version it was last synced with; null for other tables. */
  mapping: z.object({ source: z.string(), sourceVersion: z.number(), syncedAt: z.string() }).nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type TableView = z.output<typeof tableView>;

/** A table in the list: no definitions; `fields`, how many the published definition has. */
export const tableSummaryView = tableView.omit({ draft: true, published: true }).extend({ fields: z.number() });

/** A removal: the id, and the message the console shows. */
export const tableRemovedView = z.object({ id: z.string(), message: z.string() });

/** One field's change in a publish, with what it does to the values records hold. */
export const fieldChangeView = z.object({
  field: z.string(),
  title: z.string(),
  change: z.enum(['added', 'removed', 'typeChanged', 'optionsChanged']),
  from: z.string().optional(),
  to: z.string().optional(),
  values: z.number(),
  converted: z.number(),
  dropped: z.number(),
});

/** What publishing the draft does (`GET tables/{id}/publish`); `draftVersion` to send back with the publish. */
export const publishPreviewView = z.object({
  changes: z.array(fieldChangeView),
  /** Other changes of the definition, by top-level key. */
  settingsChanged: z.array(z.string()),
  draftVersion: z.number(),
  version: z.number(),
  records: z.number(),
});

/** `POST tables/{id}/publish`: the table as published, and what the publish did. */
export const publishedView = z.object({ table: tableView, diff: publishPreviewView });

/** A record: its values (only the projection's, when the list asked for fields) and who wrote it when. */
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/**
 * A record's values as answered: checked to be an object and passed on as they are (its values are
 * any JSON the table's fields hold). `z.record` checked and copied them key by key: 0.55 ms of a
 * records page of 100 × 50 fields, and the records list at 0.68–0.72 of its statement's throughput
 * (issue 33); the same JSON Schema in the API docs.
 */
const recordValuesView = z
  .custom<Record<string, unknown>>(isPlainObject, { message: 'expected an object' })
  .meta({ type: 'object', additionalProperties: {} });

export const recordView = z.object({
  id: z.string(),
  data: recordValuesView,
  createdBy: z.string().nullable(),
  updatedBy: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type RecordView = z.output<typeof recordView>;

/** A total (list totals: exact up to a cap, then an estimate the `count-estimated` header flags). */
export const recordCountView = z.object({ count: z.number() });
/** Batch edit: how many records were written. */
export const recordBatchView = z.object({ updated: z.number() });

/** `POST tables/{id}/shift`: where the table went, how many records went with it, and the message shown. */
export const tableShiftView = z.object({
  id: z.string(),
  project: z.string(),
  mode: z.enum(['copy', 'move']),
  records: z.number(),
  message: z.string(),
});

/** One field's change in a mapping table's source since the last sync; `values`: records holding a value. */
export const syncChangeView = z.object({
  field: z.string(),
  title: z.string(),
  change: z.enum(['added', 'removed', 'typeChanged']),
  from: z.string().optional(),
  to: z.string().optional(),
  values: z.number(),
});
/** `GET tables/{id}/sync`: what changed in the source; the fields a sync deletes (`mismatched`); the version to confirm. */
export const syncPreviewView = z.object({
  source: z.string(),
  sourceVersion: z.number(),
  syncedVersion: z.number(),
  changes: z.array(syncChangeView),
  mismatched: z.array(z.string()),
});
/** `POST tables/{id}/sync`: the source version the caller was shown. */
export const tableSyncBody = z.object({ sourceVersion: z.number().int().min(0) });
