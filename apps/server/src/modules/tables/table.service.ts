import { randomBytes } from 'node:crypto';
import {
  brokenRules,
  checkValues,
  FIELD_REGISTRY,
  type Field,
  type FieldMessageKey,
  type FieldOptions,
  type MessageKey,
  type RecordValues,
  type TableDefinition,
  type tableCreateBody,
  tableDefinition,
  type tableRenameBody,
  type ValueProblem,
  type WriteMode,
} from '@gantry/shared';
import type { SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/database.js';
import { projectDocuments } from '../../db/schema.js';
import { AppError, type FieldMessage } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { Invalidation, InvalidationBus } from '../../lib/invalidation-bus.js';
import type { ListTotal } from '../../lib/list-count.js';
import { badQuery, isPlainObject } from '../../lib/list-query/bad-query.js';
import {
  type FieldDef,
  mapQueryError,
  parseCountFilter,
  parseListQuery,
  type ResourceDef,
} from '../../lib/list-query/list-query.js';
import { ReadCache } from '../../lib/read-cache.js';
import type { GatedProject } from '../../plugins/project-gate.js';
import {
  manageableRecords,
  mayAddRecord,
  type RecordMember,
  recordMember,
  viewableRecords,
  visibleTables,
} from '../../policy/record-permissions.js';
import type { DocumentService, Target } from '../documents/document.service.js';
import { admitTables } from '../licence/table-gate.js';
import type { UserRow } from '../users/user.repository.js';
import { type CompiledFormula, compileFormula, FormulaNul, formulaProblem, formulaValue } from './formula.js';
import { indexedFields } from './record-index.js';
import { decodeCursor, encodeCursor, sortKeys } from './record-paging.js';
import {
  dataField,
  type RecordDoc,
  type RecordRow,
  type TableDoc,
  type TableRepository,
  type TableRow,
} from './table.repository.js';
import { diffDefinitions, type FieldChange, migrateData, type TableDiff } from './table-diff.js';
import { mismatchedFields, type SyncChange, sourceChanges, syncedDefinition, withoutFields } from './table-mapping.js';

/** What reading a table's records needs of the table: its published definition and version. */
interface PublishedTable {
  id: string;
  version: number;
  published: TableDefinition | null;
}

const publishedOf = (row: TableRow): PublishedTable => ({
  id: row.id,
  version: row.doc.version,
  published: row.doc.published,
});

/**
 * How long a record read trusts a table's cached definition: publishing or deleting a table, and
 * restoring the project's data, are announced on the invalidation bus; this bounds a missed message.
 */
const DEFINITION_CACHE_MS = 5_000;
const DEFINITION_CACHE_MAX = 2_000;
/** At most this much definition (as JSON text) is kept: a definition may be up to a 1 MiB draft. */
const DEFINITION_CACHE_CHARS = 16 * 1024 * 1024;

/** The list query language over a table's records: the id, the times, and its published fields by name. */
export function recordResource(definition: TableDefinition): ResourceDef {
  const filterable = new Map(
    definition.fields
      .filter((field) => field.type !== 'subTable')
      .map((field) => [field.name, { sql: dataField(field.name), type: 'document', sort: true } satisfies FieldDef]),
  );
  return {
    name: 'record',
    id: 'id',
    fields: {
      id: { sql: projectDocuments.id, type: 'string', sort: true },
      createTime: { sql: projectDocuments.createTime, type: 'date', sort: true },
      updateTime: { sql: projectDocuments.updateTime, type: 'date', sort: true },
    },
    resolve: (name) => (IDENTIFIER.test(name) || name === 'id' ? filterable.get(name) : undefined),
    defaultSort: { createTime: -1 },
    defaultLimit: definition.list.pageSize,
    maxLimit: 1000,
  };
}

/** The records list's query without its `cursor` key (which parseListQuery does not know). */
function splitCursor(raw: string | undefined): { cursor: unknown; rest: Record<string, unknown> } {
  if (raw === undefined || raw === '') return { cursor: undefined, rest: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badQuery('the query is not valid JSON');
  }
  if (parsed === null) return { cursor: undefined, rest: {} };
  if (!isPlainObject(parsed)) throw badQuery('the query must be a JSON object');
  const { cursor, ...rest } = parsed;
  return { cursor: cursor ?? undefined, rest };
}

/** How long a table's record indexes are trusted before a list checks them again. */
const INDEX_CHECK_MS = 60_000;

/** Records read per statement while a publish converts existing values. */
const PUBLISH_BATCH = 500;
const IDENTIFIER = /^[A-Za-z][^\s.$@%^&*()=+{}[\]:;'"`<>,?/|\\]{0,63}$/;

/** What a new table and a rename take (`rest/spm/tables`; the schemas are packages/shared's). */
export type TableCreate = z.output<typeof tableCreateBody>;
export type TableRename = z.output<typeof tableRenameBody>;

export interface PublishPreview extends TableDiff {
  draftVersion: number;
  version: number;
  records: number;
}

/** The sync step of a mapping table (`GET tables/{id}/sync`). */
export interface SyncPreview {
  source: string;
  sourceVersion: number;
  syncedVersion: number;
  changes: Array<SyncChange & { values: number }>;
  mismatched: string[];
}

/**
 * Who a table call (a read or a write) runs as: the platform user (the administrator or the owning tenant: every record), or, with
 * `member`, a project user whom the table's record permissions (§4a) bound.
 */
export interface TableCaller {
  id: string;
  member?: RecordMember;
}

function problemsError(problems: ValueProblem[]): AppError {
  const fields: Record<string, MessageKey | FieldMessage> = {};
  for (const problem of problems) {
    if (fields[problem.path]) continue;
    fields[problem.path] = problem.params ? { key: problem.message, params: problem.params } : problem.message;
  }
  return new AppError('recordInvalid', { fields });
}

function definitionError(issues: z.core.$ZodIssue[]): AppError {
  const fields: Record<string, MessageKey> = {};
  for (const issue of issues) {
    const path = issue.path.map(String).join('.') || '_';
    if (fields[path]) continue;
    fields[path] = (issue.message.includes('.') ? issue.message : 'field.options') as FieldMessageKey;
  }
  return new AppError('tableInvalid', { fields });
}

/**
 * A project's tables (backups-data-designer.md §2, §4a, §5): create, rename, delete, save draft,
 * publish with the difference shown first, and their records, every write checked against the
 * published definition (the registry's value schemas, required, no duplicates, field rules, related
 * records), auto-numbers given under the table's row lock, formulas and lookups computed on write.
 */
export class TableService {
  private readonly formulas = new Map<string, Map<string, CompiledFormula>>();
  /** Project/table → the published version whose record indexes were checked, and when (ensureIndexes). */
  private readonly indexedVersion = new Map<string, { version: number; at: number }>();
  /** Project/table → the index work under way (one at a time per table). */
  private readonly indexing = new Map<string, Promise<void>>();
  /** Project/table → its published definition, for record reads (writes read it under the table's lock). */
  private readonly definitions: ReadCache<PublishedTable>;

  constructor(
    private readonly repo: TableRepository,
    private readonly documents: DocumentService,
    private readonly clock: Clock,
    private readonly warn: (error: unknown, message: string) => void = () => {},
    private readonly bus?: InvalidationBus,
  ) {
    this.definitions = new ReadCache(DEFINITION_CACHE_MS, DEFINITION_CACHE_MAX, () => this.clock().getTime(), {
      sizeOf: (table) => JSON.stringify(table.published).length,
      maxSize: DEFINITION_CACHE_CHARS,
    });
  }

  /** A change announced on the invalidation bus: a project's tables or the project itself, or anything. */
  apply(change: Invalidation): void {
    if (change.kind === 'tables' || change.kind === 'site') this.definitions.forget({ prefix: `${change.projectId}/` });
    else if (change.kind === 'all') this.definitions.forget();
  }

  /** After a publish or delete has committed: this process's cached definitions go, then the others'. */
  private async definitionsChanged(projectId: string): Promise<void> {
    this.definitions.forget({ prefix: `${projectId}/` });
    await this.bus
      ?.publish({ kind: 'tables', projectId })
      .catch((error: unknown) => this.warn(error, 'table change not announced'));
  }

  /**
   * The caller as a project user (`x-view-as`: the owner sees and works as that user, under the
   * table's record permissions), or the owner themself.
   */
  async callerFor(target: Target, user: UserRow, viewAs: string | undefined): Promise<TableCaller> {
    if (viewAs === undefined) return { id: user.id };
    const member = await this.repo.projectUser(target.projectId, viewAs);
    if (!member) throw new AppError('notFound');
    const parents =
      member.department === undefined
        ? new Map<string, string | undefined>()
        : await this.repo.departments(target.projectId);
    return {
      id: viewAs,
      member: recordMember({ userId: viewAs, department: member.department, roles: member.roles }, parents),
    };
  }

  /** Where the project's tables are (the project checked for the caller by the project gate). */
  target(project: GatedProject): Target {
    return this.documents.target(project, 'table');
  }

  // ---- tables ----------------------------------------------------------------------------------

  listTables(target: Target): Promise<TableRow[]> {
    return this.repo.listTables(target.projectId);
  }

  /** The published tables the caller sees (the back office's list): the policy's visible-tables filter. */
  async visibleTables(target: Target, caller: TableCaller): Promise<TableRow[]> {
    const published = (await this.repo.listTables(target.projectId)).filter((row) => row.doc.published);
    return visibleTables(published, (row) => row.doc.published?.permissions, caller.member);
  }

  async getTable(target: Target, id: string): Promise<TableRow> {
    const row = await this.repo.getTable(target.projectId, id);
    if (!row) throw new AppError('tableNotFound');
    return row;
  }

  /** A new table (an empty draft), through the table gate (`licence/table-gate.ts`: the grant's `flow.tableCount`). */
  async createTable(target: Target, body: TableCreate, caller: TableCaller): Promise<TableRow> {
    return this.repo.transaction(async (tx) => {
      await admitTables(tx, target.projectId, 1);
      if (await this.repo.tableNamed(target.projectId, body.name, undefined, tx)) throw new AppError('tableNameTaken');
      const doc: TableDoc = {
        name: body.name,
        ...(body.title ? { title: body.title } : {}),
        draft: tableDefinition.parse({}),
        draftVersion: 1,
        published: null,
        version: 0,
        counters: {},
        createdBy: caller.id,
      };
      if (body.source !== undefined) await this.mapSource(target, doc, body.source, tx);
      return this.repo.insertTable(target.projectId, randomBytes(12).toString('hex'), doc, this.clock(), tx);
    });
  }

  /** A new mapping table: published at once with its source's published fields (§4a). */
  private async mapSource(target: Target, doc: TableDoc, sourceId: string, tx: Database): Promise<void> {
    const source = await this.repo.getTable(target.projectId, sourceId, tx);
    const fields = source?.doc.published?.fields;
    if (!source || !fields) throw new AppError('tableMappingSource');
    const definition = tableDefinition.parse({ fields });
    Object.assign(doc, {
      draft: definition,
      published: definition,
      version: 1,
      publishedAt: this.clock().toISOString(),
      mapping: { source: sourceId, fields, sourceVersion: source.doc.version, syncedAt: this.clock().toISOString() },
    } satisfies Partial<TableDoc>);
  }

  /** A mapping table, its row locked, and its source's published definition now (or the sync's exception). */
  private async mappingOf(target: Target, id: string, tx: Database, lock: boolean) {
    const row = lock ? await this.lockTable(target, id, tx) : await this.repo.getTable(target.projectId, id, tx);
    if (!row) throw new AppError('tableNotFound');
    const mapping = row.doc.mapping;
    if (!mapping) throw new AppError('tableNotMapping');
    const source = await this.repo.getTable(target.projectId, mapping.source, tx);
    if (!source?.doc.published) throw new AppError('tableSyncFailed', { params: { reason: 'table.syncSourceGone' } });
    const published = this.published(row);
    const changes = sourceChanges(mapping.fields, source.doc.published.fields);
    return { row, mapping, source, published, changes, mismatched: mismatchedFields(published, changes) };
  }

  /** The sync step of a mapping table: what changed in its source since the last sync, and what confirming deletes. */
  async syncPreview(target: Target, id: string): Promise<SyncPreview> {
    return this.repo.transaction(async (tx) => {
      const { row, mapping, source, published, changes, mismatched } = await this.mappingOf(target, id, tx, false);
      const pruned = { ...row, doc: { ...row.doc, draft: withoutFields(published, mismatched) } };
      const dropped = await this.migrate(target, pruned, tx, false);
      const values = new Map(dropped.changes.map((change) => [change.field, change.values]));
      return {
        source: mapping.source,
        sourceVersion: source.doc.version,
        syncedVersion: mapping.sourceVersion,
        changes: changes.map((change) => ({ ...change, values: values.get(change.field) ?? 0 })),
        mismatched,
      };
    });
  }

  /**
   * Confirm a sync: the mismatched fields deleted with their values, the source's new and retyped
   * fields taken, in one transaction; 'data sync exception' (and why) when it cannot be done.
   */
  async sync(target: Target, id: string, sourceVersion: number): Promise<TableRow> {
    const synced = await this.repo.transaction(async (tx) => {
      const { row, mapping, source, published, changes, mismatched } = await this.mappingOf(target, id, tx, true);
      const fail = (reason: MessageKey, params: Record<string, string> = {}) =>
        new AppError('tableSyncFailed', { params: { reason, ...params } });
      if (source.doc.version !== sourceVersion) throw fail('table.syncChanged');
      const sourceFields = source.doc.published?.fields ?? [];
      const next = tableDefinition.safeParse(syncedDefinition(published, changes, sourceFields));
      const draft = tableDefinition.safeParse(syncedDefinition(row.doc.draft, changes, sourceFields));
      if (!next.success || !draft.success) {
        const issue = (next.error ?? draft.error)?.issues[0];
        throw fail('table.syncBroken', { detail: issue ? `${issue.path.join('.')}: ${issue.message}` : '' });
      }
      try {
        await this.checkReferences(target, next.data, tx);
      } catch (error) {
        if (error instanceof AppError && error.code === 'tablePublishFailed')
          throw new AppError('tableSyncFailed', { params: error.options.params ?? {} });
        throw error;
      }
      await this.migrate(
        target,
        { ...row, doc: { ...row.doc, draft: withoutFields(published, mismatched) } },
        tx,
        true,
      );
      const now = this.clock().toISOString();
      const doc: TableDoc = {
        ...row.doc,
        draft: draft.data,
        draftVersion: row.doc.draftVersion + 1,
        published: next.data,
        version: row.doc.version + 1,
        publishedAt: now,
        mapping: { ...mapping, fields: sourceFields, sourceVersion, syncedAt: now },
      };
      this.forgetFormulas(target.projectId, id);
      return this.repo.saveTable(target.projectId, id, doc, this.clock(), tx);
    });
    await this.definitionsChanged(target.projectId);
    await this.ensureIndexes(target.projectId, publishedOf(synced), true);
    return synced;
  }

  async renameTable(target: Target, id: string, body: TableRename): Promise<TableRow> {
    return this.repo.transaction(async (tx) => {
      const row = await this.lockTable(target, id, tx);
      if (body.name !== undefined && (await this.repo.tableNamed(target.projectId, body.name, id, tx)))
        throw new AppError('tableNameTaken');
      const doc = { ...row.doc, ...(body.name !== undefined ? { name: body.name } : {}) };
      if (body.title !== undefined) doc.title = body.title;
      return this.repo.saveTable(target.projectId, id, doc, this.clock(), tx);
    });
  }

  /** Deletes the table and all its records. */
  async deleteTable(target: Target, id: string): Promise<void> {
    const deleted = await this.repo.transaction((tx) => this.repo.deleteTable(target.projectId, id, tx));
    if (!deleted) throw new AppError('tableNotFound');
    await this.definitionsChanged(target.projectId);
    this.forgetFormulas(target.projectId, id);
    this.indexedVersion.delete(`${target.projectId}/${id}`);
    await this.repo
      .dropRecordIndexes(target.projectId, id)
      .catch((error: unknown) => this.warn(error, 'table record indexes not dropped'));
  }

  /** After a shift has committed: both projects' cached definitions go, the table's record indexes follow it. */
  async tableShifted(from: string, to: string, id: string, moved: boolean): Promise<void> {
    await this.definitionsChanged(to);
    const table = await this.repo.getTable(to, id);
    if (table) await this.ensureIndexes(to, publishedOf(table), true);
    if (!moved) return;
    await this.definitionsChanged(from);
    this.forgetFormulas(from, id);
    this.indexedVersion.delete(`${from}/${id}`);
    await this.repo
      .dropRecordIndexes(from, id)
      .catch((error: unknown) => this.warn(error, 'table record indexes not dropped'));
  }

  /** Save draft: the definition checked by the designer's rules (§5); records are untouched. */
  async saveDraft(target: Target, id: string, body: unknown): Promise<TableRow> {
    const parsed = tableDefinition.safeParse(body);
    if (!parsed.success) throw definitionError(parsed.error.issues);
    return this.repo.transaction(async (tx) => {
      const row = await this.lockTable(target, id, tx);
      const doc: TableDoc = { ...row.doc, draft: parsed.data, draftVersion: row.doc.draftVersion + 1 };
      return this.repo.saveTable(target.projectId, id, doc, this.clock(), tx);
    });
  }

  /** What publishing the draft would change, with the counts of values dropped or converted. */
  async publishPreview(target: Target, id: string): Promise<PublishPreview> {
    return this.repo.transaction(async (tx) => {
      const row = await this.repo.getTable(target.projectId, id, tx);
      if (!row) throw new AppError('tableNotFound');
      return this.migrate(target, row, tx, false);
    });
  }

  /**
   * Publish / update publish: the draft becomes the published definition and existing records
   * follow it (removed fields dropped, changed ones converted or dropped, formulas recomputed), all in
   * one transaction. `draftVersion`, when given, must be the draft the caller was shown.
   */
  async publish(
    target: Target,
    id: string,
    draftVersion: number | undefined,
  ): Promise<{ table: TableRow; diff: PublishPreview }> {
    const published = await this.repo.transaction(async (tx) => {
      const row = await this.lockTable(target, id, tx);
      if (draftVersion !== undefined && draftVersion !== row.doc.draftVersion) throw new AppError('tableDraftChanged');
      await this.checkReferences(target, row.doc.draft, tx);
      const diff = await this.migrate(target, row, tx, true);
      const doc: TableDoc = {
        ...row.doc,
        published: row.doc.draft,
        version: row.doc.version + 1,
        publishedAt: this.clock().toISOString(),
      };
      this.forgetFormulas(target.projectId, id);
      return { table: await this.repo.saveTable(target.projectId, id, doc, this.clock(), tx), diff };
    });
    await this.definitionsChanged(target.projectId);
    // Right after the commit (PostgreSQL builds them concurrently, which no transaction may hold).
    await this.ensureIndexes(target.projectId, publishedOf(published.table), true);
    return published;
  }

  /** The references a draft makes that only the database can check; 'publish failed' names the first broken. */
  private async checkReferences(target: Target, draft: TableDefinition, tx: Database): Promise<void> {
    const fail = (reason: MessageKey, params: Record<string, string> = {}) =>
      new AppError('tablePublishFailed', { params: { reason, ...params } });
    const names = new Set(draft.fields.map((field) => field.name));
    const relations = draft.fields.flatMap((field) => (field.type === 'relation' ? [field] : []));
    const related = new Map(
      (await this.repo.tablesByIds(target.projectId, [...new Set(relations.map((f) => f.options.table))], tx)).map(
        (table) => [table.id, table],
      ),
    );
    for (const field of relations) {
      if (!related.has(field.options.table)) throw fail('table.relationTable');
    }
    for (const field of draft.fields) {
      if (field.type === 'lookup') {
        const relation = draft.fields.find((f) => f.name === field.options.relation);
        const other = relation?.type === 'relation' ? related.get(relation.options.table) : undefined;
        const otherFields = other?.doc.published?.fields ?? [];
        if (!otherFields.some((f) => f.name === field.options.field)) throw fail('table.unknownField');
      }
      if (field.type === 'formula') {
        try {
          await compileFormula(field.options.expression, names);
        } catch (error) {
          const problem = formulaProblem(error, field.name);
          if (problem) throw fail(problem.key, problem.params);
          throw error;
        }
      }
    }
  }

  /** Walks the table's records under the draft; writes them when `write`. */
  private async migrate(target: Target, row: TableRow, tx: Database, write: boolean): Promise<PublishPreview> {
    const draft = row.doc.draft;
    const diff = diffDefinitions(row.doc.published, draft);
    const touched = diff.changes.filter((change) => change.change !== 'added').map((change) => change.field);
    const formulaChanged = diff.changes.some(
      (change) => change.to === 'formula' || (change.from === 'formula' && change.change !== 'removed'),
    );
    let formulas: Map<string, CompiledFormula> | undefined;
    if (formulaChanged && write) formulas = await this.compileAll(draft);
    const fields = formulaChanged ? [] : touched;
    let records = 0;
    if (fields.length > 0 || formulaChanged) {
      let after = '';
      for (;;) {
        const page = await this.repo.recordsWithValues(target.projectId, row.id, fields, after, PUBLISH_BATCH, tx);
        for (const record of page) {
          records += 1;
          let data = migrateData(record.data, diff.changes, draft);
          if (formulas) data = this.computeFormulas(draft, formulas, data);
          if (write && JSON.stringify(data) !== JSON.stringify(record.data))
            await this.repo.setRecordData(target.projectId, record.id, data, tx);
        }
        if (page.length < PUBLISH_BATCH) break;
        after = page[page.length - 1]?.id ?? after;
      }
    }
    return { ...diff, draftVersion: row.doc.draftVersion, version: row.doc.version, records };
  }

  private async lockTable(target: Target, id: string, tx: Database): Promise<TableRow> {
    const row = await this.repo.getTable(target.projectId, id, tx, true);
    if (!row) throw new AppError('tableNotFound');
    return row;
  }

  // ---- records ---------------------------------------------------------------------------------

  private published(row: TableRow): TableDefinition {
    if (!row.doc.published) throw new AppError('tableNotPublished');
    return row.doc.published;
  }

  /** The table's published definition for a record read (cached), or why there is none. */
  private async readable(target: Target, id: string): Promise<PublishedTable & { published: TableDefinition }> {
    const table = await this.definitions.get(`${target.projectId}/${id}`, async () => {
      const row = await this.repo.getTable(target.projectId, id);
      return row && publishedOf(row);
    });
    if (!table) throw new AppError('tableNotFound');
    if (!table.published) throw new AppError('tableNotPublished');
    return { ...table, published: table.published };
  }

  /** The records the caller may see (view), as SQL (the policy's record permissions). */
  private viewScope(definition: TableDefinition, caller: TableCaller): SQL | undefined {
    return viewableRecords(definition.permissions, caller.member);
  }

  /** The records the caller may change or delete (the policy's record permissions). */
  private manageScope(definition: TableDefinition, caller: TableCaller): SQL | undefined {
    return manageableRecords(definition.permissions, caller.member);
  }

  /**
   * A page of records: `skip` paging, or keyset paging with `cursor` (the `next-cursor` of the page
   * before, for the same sort); `nextCursor` is set when the page is full (more may follow).
   */
  async listRecords(target: Target, tableId: string, rawQuery: string | undefined, caller: TableCaller) {
    const table = await this.readable(target, tableId);
    const definition = table.published;
    const { cursor, rest } = splitCursor(rawQuery);
    const query = parseListQuery(rest, recordResource(definition));
    const keys = sortKeys(rest.sort);
    if (cursor !== undefined && query.offset > 0) throw badQuery("give 'skip' or 'cursor', not both");
    const after = cursor === undefined ? undefined : decodeCursor(keys, cursor);
    const scope = this.viewScope(definition, caller);
    await this.ensureIndexes(target.projectId, table);
    try {
      const [rows, total] = await Promise.all([
        this.repo.listRecords(target.projectId, tableId, query, scope, { keys, after }),
        query.withCount ? this.repo.totalRecords(target.projectId, tableId, query.where, scope) : undefined,
      ]);
      const nextCursor = rows.length === query.limit && rows.lastKeys ? encodeCursor(keys, rows.lastKeys) : undefined;
      return { rows, total, fields: query.fields, nextCursor };
    } catch (error) {
      throw mapQueryError(error);
    }
  }

  /**
   * The table's record indexes match its published definition: made right after a publish, and
   * checked again (one catalog query) by a list at most once a minute per table, so a restored or
   * copied table, or one published by another server process, gets them without a publish here.
   */
  private async ensureIndexes(projectId: string, table: PublishedTable, force = false): Promise<void> {
    const key = `${projectId}/${table.id}`;
    const version = table.version;
    const fresh = () => {
      const checked = this.indexedVersion.get(key);
      return checked?.version === version && this.clock().getTime() - checked.at < INDEX_CHECK_MS;
    };
    if (!force && fresh()) return;
    const previous = this.indexing.get(key) ?? Promise.resolve();
    const run = previous
      .catch(() => undefined)
      .then(async () => {
        if (!force && fresh()) return;
        const fields = table.published ? indexedFields(table.published) : [];
        await this.repo.syncRecordIndexes(projectId, table.id, fields);
        this.indexedVersion.set(key, { version, at: this.clock().getTime() });
      });
    this.indexing.set(key, run);
    try {
      await run;
    } catch (error) {
      // The list still answers without the indexes (slower); the next call tries again.
      this.warn(error, 'table record indexes not made');
    } finally {
      if (this.indexing.get(key) === run) this.indexing.delete(key);
    }
  }

  async countRecords(
    target: Target,
    tableId: string,
    rawQuery: string | undefined,
    caller: TableCaller,
  ): Promise<ListTotal> {
    const table = await this.readable(target, tableId);
    const definition = table.published;
    const { where } = parseCountFilter(rawQuery, recordResource(definition));
    try {
      return await this.repo.totalRecords(target.projectId, tableId, where, this.viewScope(definition, caller));
    } catch (error) {
      throw mapQueryError(error);
    }
  }

  async getRecord(target: Target, tableId: string, id: string, caller: TableCaller): Promise<RecordRow> {
    const table = await this.readable(target, tableId);
    const definition = table.published;
    const row = await this.repo.getRecord(target.projectId, tableId, id, this.viewScope(definition, caller));
    if (!row) throw new AppError('recordNotFound');
    return row;
  }

  async createRecord(target: Target, tableId: string, body: unknown, caller: TableCaller): Promise<RecordRow> {
    return this.repo.transaction(async (tx) => {
      // The table's row lock orders the writes of one table: auto-numbers and no-duplicate checks.
      const table = await this.lockTable(target, tableId, tx);
      const definition = this.published(table);
      if (!mayAddRecord(definition.permissions, caller.member)) throw new AppError('forbidden');
      const { values, problems } = checkValues(definition.fields, body, 'create', undefined);
      if (problems.length > 0) throw problemsError(problems);
      const now = this.clock();
      const data = await this.complete(target, table, definition, values, 'create', caller, now, tx);
      await this.checkRecord(target, tableId, definition, data, 'create', undefined, tx);
      await this.giveNumbers(target, table, definition, data, now, tx);
      return this.repo.insertRecord(
        target.projectId,
        randomBytes(12).toString('hex'),
        {
          table: tableId,
          data,
          createdBy: caller.id,
          updatedBy: caller.id,
          ...(caller.member?.subject.department !== undefined ? { createdDept: caller.member.subject.department } : {}),
          ...(caller.member ? { createdRoles: [...caller.member.subject.roles] } : {}),
        },
        now,
        tx,
      );
    });
  }

  /** PATCH (the given values) or PUT (the whole record: values not given are cleared). */
  async updateRecord(
    target: Target,
    tableId: string,
    id: string,
    body: unknown,
    caller: TableCaller,
    whole: boolean,
  ): Promise<RecordRow> {
    return this.repo.transaction(async (tx) => {
      const table = await this.lockTable(target, tableId, tx);
      return this.updateOne(target, table, id, body, caller, whole, tx);
    });
  }

  /** Batch edit: the same values written to every record named, all or none. */
  async batchUpdate(
    target: Target,
    tableId: string,
    ids: string[],
    values: unknown,
    caller: TableCaller,
  ): Promise<number> {
    return this.repo.transaction(async (tx) => {
      const table = await this.lockTable(target, tableId, tx);
      const definition = this.published(table);
      if (values && typeof values === 'object') {
        const notBatch = Object.keys(values).filter(
          (name) => !definition.fields.find((field) => field.name === name)?.batchEdit,
        );
        if (notBatch.length > 0)
          throw problemsError(notBatch.map((name) => ({ path: name, message: 'value.readOnly' as const })));
      }
      for (const id of new Set(ids)) await this.updateOne(target, table, id, values, caller, false, tx);
      return new Set(ids).size;
    });
  }

  private async updateOne(
    target: Target,
    table: TableRow,
    id: string,
    body: unknown,
    caller: TableCaller,
    whole: boolean,
    tx: Database,
  ): Promise<RecordRow> {
    const definition = this.published(table);
    const existing = await this.manageable(target, table.id, definition, id, caller, tx);
    let input = body;
    if (whole && body && typeof body === 'object' && !Array.isArray(body)) {
      // PUT: every input field not given is cleared.
      const cleared = Object.fromEntries(
        definition.fields.filter((field) => !FIELD_REGISTRY[field.type].computed).map((field) => [field.name, null]),
      );
      input = { ...cleared, ...body };
    }
    const { values, problems } = checkValues(definition.fields, input, 'update', existing.doc.data);
    if (problems.length > 0) throw problemsError(problems);
    const merged = { ...existing.doc.data, ...values };
    for (const [name, value] of Object.entries(values)) if (value === null) delete merged[name];
    const now = this.clock();
    const data = await this.complete(target, table, definition, merged, 'update', caller, now, tx);
    await this.checkRecord(target, table.id, definition, data, 'update', id, tx);
    const saved = await this.repo.saveRecord(
      target.projectId,
      table.id,
      id,
      { ...existing.doc, data, updatedBy: caller.id } satisfies RecordDoc,
      now,
      tx,
    );
    if (!saved) throw new AppError('recordNotFound');
    return saved;
  }

  async deleteRecord(target: Target, tableId: string, id: string, caller: TableCaller): Promise<void> {
    await this.repo.transaction(async (tx) => {
      const table = await this.lockTable(target, tableId, tx);
      await this.manageable(target, tableId, this.published(table), id, caller, tx);
      if (!(await this.repo.deleteRecord(target.projectId, tableId, id, undefined, tx)))
        throw new AppError('recordNotFound');
    });
  }

  /** The record if the caller may manage it; one they cannot see is not found, one they only see is forbidden. */
  private async manageable(
    target: Target,
    tableId: string,
    definition: TableDefinition,
    id: string,
    caller: TableCaller,
    tx: Database,
  ): Promise<RecordRow> {
    const row = await this.repo.getRecord(target.projectId, tableId, id, this.manageScope(definition, caller), tx);
    if (row) return row;
    const seen = await this.repo.getRecord(target.projectId, tableId, id, this.viewScope(definition, caller), tx);
    throw new AppError(seen ? 'forbidden' : 'recordNotFound');
  }

  /** Related records checked, lookups resolved, user fields and formulas set. */
  private async complete(
    target: Target,
    table: TableRow,
    definition: TableDefinition,
    values: RecordValues,
    mode: WriteMode,
    caller: TableCaller,
    _now: Date,
    tx: Database,
  ): Promise<RecordValues> {
    const data: RecordValues = { ...values };
    const problems: ValueProblem[] = [];
    const relatedData = new Map<string, Map<string, RecordValues>>();
    for (const field of definition.fields) {
      if (field.type !== 'relation') continue;
      const value = data[field.name];
      if (value === undefined || value === null) continue;
      const ids = Array.isArray(value) ? value.map(String) : [String(value)];
      const found = await this.repo.existingRecords(target.projectId, field.options.table, ids, tx);
      if (found.length !== new Set(ids).size) problems.push({ path: field.name, message: 'value.relation' });
      relatedData.set(field.name, new Map(found.map((record) => [record.id, record.doc.data])));
    }
    if (problems.length > 0) throw problemsError(problems);
    for (const field of definition.fields) {
      if (field.type === 'lookup') {
        const relation = definition.fields.find((f) => f.name === field.options.relation);
        const value = data[field.options.relation];
        const records = relatedData.get(field.options.relation);
        if (relation?.type !== 'relation' || value === undefined || value === null || !records) {
          delete data[field.name];
          continue;
        }
        const looked = (Array.isArray(value) ? value : [value]).map(
          (rid) => records.get(String(rid))?.[field.options.field] ?? null,
        );
        data[field.name] = relation.options.multiple ? looked : (looked[0] ?? null);
      } else if (field.type === 'user') {
        if (field.options.mode === 'modifier' || mode === 'create') data[field.name] = caller.id;
      }
    }
    return this.computeFormulas(definition, await this.formulasOf(target, table, definition), data);
  }

  private forgetFormulas(projectId: string, tableId: string): void {
    const prefix = `${projectId}/${tableId}/`;
    for (const key of this.formulas.keys()) if (key.startsWith(prefix)) this.formulas.delete(key);
  }

  private async formulasOf(
    target: Target,
    table: TableRow,
    definition: TableDefinition,
  ): Promise<Map<string, CompiledFormula>> {
    // Keyed by what the formulas are compiled from too: a compile that finishes after the table
    // was published again (or another process published it) is never taken for the new one.
    const from = definition.fields.map((field) =>
      field.type === 'formula' ? [field.name, field.options.expression] : field.name,
    );
    const key = `${target.projectId}/${table.id}/${JSON.stringify(from)}`;
    let compiled = this.formulas.get(key);
    if (!compiled) {
      compiled = await this.compileAll(definition);
      if (this.formulas.size >= 500) this.formulas.delete(this.formulas.keys().next().value ?? '');
      this.formulas.set(key, compiled);
    }
    return compiled;
  }

  private async compileAll(definition: TableDefinition): Promise<Map<string, CompiledFormula>> {
    const names = new Set(definition.fields.map((field) => field.name));
    const compiled = new Map<string, CompiledFormula>();
    for (const field of definition.fields) {
      if (field.type !== 'formula') continue;
      try {
        compiled.set(field.name, await compileFormula(field.options.expression, names));
      } catch {
        // Checked at publish; a formula that cannot compile yields no value.
      }
    }
    return compiled;
  }

  /** Formulas in field order, each seeing the values before it (a formula may use an earlier one). */
  private computeFormulas(definition: TableDefinition, formulas: Map<string, CompiledFormula>, data: RecordValues) {
    const next = { ...data };
    for (const field of definition.fields) {
      if (field.type !== 'formula') continue;
      const formula = formulas.get(field.name);
      let value: ReturnType<typeof formulaValue> = null;
      try {
        value = formula ? formulaValue(formula, field.options, next) : null;
      } catch (error) {
        if (!(error instanceof FormulaNul)) throw error;
        const problem = { key: 'table.formulaNul', params: { name: field.name } } as const;
        throw new AppError('recordInvalid', { fields: { [field.name]: problem } });
      }
      if (value === null) delete next[field.name];
      else next[field.name] = value;
    }
    return next;
  }

  /** No duplicates (per field and the selected fields together) and the field rules. */
  private async checkRecord(
    target: Target,
    tableId: string,
    definition: TableDefinition,
    data: RecordValues,
    mode: WriteMode,
    exceptId: string | undefined,
    tx: Database,
  ): Promise<void> {
    const problems: ValueProblem[] = [];
    for (const field of definition.fields) {
      const value = data[field.name];
      if (!field.unique || value === undefined || value === null) continue;
      if (await this.repo.valuesTaken(target.projectId, tableId, { [field.name]: value }, exceptId, tx))
        problems.push({ path: field.name, message: 'value.duplicate' });
    }
    const together = definition.uniqueTogether;
    if (together.length > 0 && together.every((name) => data[name] !== undefined && data[name] !== null)) {
      const values = Object.fromEntries(together.map((name) => [name, data[name]]));
      if (await this.repo.valuesTaken(target.projectId, tableId, values, exceptId, tx))
        problems.push({ path: together[0] ?? '_', message: 'table.uniqueTogether' });
    }
    if (problems.length > 0) throw problemsError(problems);
    const broken = brokenRules(definition, data, mode);
    if (broken.length > 0) {
      const fields: Record<string, FieldMessage> = {};
      for (const rule of broken) fields[rule.field] ??= { key: 'table.ruleHint', params: { content: rule.content } };
      throw new AppError('recordInvalid', { fields, messageFromFields: true });
    }
  }

  /** Auto-numbers: the table's counters (its row is locked by the caller), no gaps, no repeats. */
  private async giveNumbers(
    target: Target,
    table: TableRow,
    definition: TableDefinition,
    data: RecordValues,
    now: Date,
    tx: Database,
  ): Promise<void> {
    const numbered = definition.fields.flatMap((field) => (field.type === 'autoNumber' ? [field] : []));
    if (numbered.length === 0) return;
    const counters = { ...(table.doc.counters ?? {}) };
    for (const field of numbered) {
      const { options } = field;
      const last = counters[field.name];
      const next = last === undefined ? options.start : last + options.step;
      counters[field.name] = next;
      data[field.name] = autoNumberText(options, next, now);
    }
    table.doc.counters = counters;
    await this.repo.saveTable(target.projectId, table.id, table.doc, table.updateTime, tx);
  }
}

/** The text of an auto-number: fixed content, the creation date (UTC), the counter (padded to its digits). */
export function autoNumberText(options: FieldOptions<'autoNumber'>, value: number, created: Date): string {
  const iso = created.toISOString();
  const date =
    options.datePart === 'YYYY'
      ? iso.slice(0, 4)
      : options.datePart === 'YYYYMM'
        ? iso.slice(0, 7).replace('-', '')
        : options.datePart === 'YYYYMMDD'
          ? iso.slice(0, 10).replaceAll('-', '')
          : '';
  const digits = String(value);
  return `${options.prefix}${date}${options.padding ? digits.padStart(options.digits, '0') : digits}`;
}

export type { Field, FieldChange };
