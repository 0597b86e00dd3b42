import { and, asc, eq, inArray, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { DEFAULT_PARTITION, hasOwnPartition, ownPartitionName } from '../../db/document-partitions.js';
import { projectDocuments } from '../../db/schema.js';
import { cappedCount, type ListTotal } from '../../lib/list-count.js';
import type { ListQuery } from '../../lib/list-query/list-query.js';
import { allOf } from '../../lib/sql-conditions.js';
import {
  createIndexSql,
  createStatisticsSql,
  dataFieldSql,
  RECORD_INDEX_PREFIX,
  recordIndexName,
  statisticsName,
  tableIndexPrefix,
  tableStatisticsSql,
} from './record-index.js';
import { afterCursor, keyValues, keyValuesSql, type SortKey } from './record-paging.js';
import { isRecordDoc, isTableDoc, type RecordDoc, type TableDoc, tableDocOf } from './table-documents.js';

export type { RecordDoc, TableDoc } from './table-documents.js';

/**
 * All SQL of tables and records. Both live in `project_documents` (design D3): a table is a document
 * of the `table` collection, a record one of `table_record` whose `doc.table` is its table's id and
 * `doc.data` its values. Every statement is scoped by project and collection.
 */

export interface TableRow {
  id: string;
  doc: TableDoc;
  createTime: Date;
  updateTime: Date;
}
export interface RecordRow {
  id: string;
  doc: RecordDoc;
  createTime: Date;
  updateTime: Date;
}

const TABLE = 'table';
const RECORD = 'table_record';

type StoredRow = typeof projectDocuments.$inferSelect;

/** Every document of the `table` collection is a table (one the designer did not write: an empty draft, `tableDocOf`). */
const asTable = (row: StoredRow): TableRow => ({
  id: row.id,
  doc: tableDocOf(row.doc, row.id),
  createTime: row.createTime,
  updateTime: row.updateTime,
});
const tablesOf = (rows: StoredRow[]): TableRow[] => rows.map(asTable);
/** A table this repository has just written. */
const writtenTable = (row: StoredRow): TableRow => {
  if (!isTableDoc(row.doc)) throw new Error('the table written is no designer table');
  return asTable(row);
};
const asRecord = (row: StoredRow): RecordRow => {
  if (!isRecordDoc(row.doc)) throw new Error(`stored record ${row.id} is not a designer record`);
  return { id: row.id, doc: row.doc, createTime: row.createTime, updateTime: row.updateTime };
};

/** A value of the record's data as jsonb (JSON null read as SQL NULL). */
export const dataField = (name: string): SQL => dataFieldSql(name);

export class TableRepository {
  /** `engine`: PostgreSQL builds and drops record indexes concurrently (writes go on meanwhile). */
  constructor(
    private readonly db: Database,
    private readonly engine: 'pglite' | 'postgres' = 'pglite',
  ) {}

  /** The record indexes of a table that exist now: name → whether it is valid (a failed concurrent build is not). */
  async recordIndexes(projectId: string, tableId: string): Promise<Map<string, boolean>> {
    const prefix = tableIndexPrefix(projectId, tableId);
    const { rows } = await this.db.execute<{ name: string; valid: boolean }>(
      sql`select c.relname as name, i.indisvalid as valid from pg_class c join pg_index i on i.indexrelid = c.oid
          where left(c.relname, ${prefix.length}) = ${prefix} and pg_table_is_visible(c.oid)`,
    );
    return new Map(rows.map((row) => [row.name, row.valid]));
  }

  /**
   * Makes the table's record indexes those of `fields` (record-index.ts): drops the others (and any
   * left invalid), creates the missing ones. DDL takes no parameters: the names are hashes, the
   * project and table ids literals.
   */
  async syncRecordIndexes(
    projectId: string,
    tableId: string,
    fields: string[],
  ): Promise<{ created: number; dropped: number }> {
    const concurrently = this.engine === 'postgres';
    const wanted = new Map(fields.map((field) => [recordIndexName(projectId, tableId, field), field]));
    const existing = await this.recordIndexes(projectId, tableId);
    let dropped = 0;
    for (const [name, valid] of existing) {
      if (wanted.has(name) && valid) continue;
      await this.dropIndex(name, concurrently);
      existing.delete(name);
      dropped++;
    }
    let created = 0;
    let partition: string | undefined;
    for (const [name, field] of wanted) {
      if (existing.has(name)) continue;
      partition ??= await this.partitionOf(projectId);
      await this.db.execute(sql.raw(createIndexSql(projectId, tableId, field, concurrently, partition)));
      await this.db.execute(sql.raw(createStatisticsSql(projectId, tableId, field, partition)));
      created++;
    }
    if (partition !== undefined) {
      await this.db.execute(sql.raw(tableStatisticsSql(partition)));
      // The new statistics are empty until analysed (PostgreSQL's autovacuum would come later).
      await this.db.execute(sql.raw(`ANALYZE ${partition}`));
    }
    return { created, dropped };
  }

  /** The partition of project_documents that holds a project's rows: its own, or the default one. */
  private async partitionOf(projectId: string): Promise<string> {
    return (await hasOwnPartition(this.db, projectId)) ? ownPartitionName(projectId) : DEFAULT_PARTITION;
  }

  private async dropIndex(name: string, concurrently: boolean): Promise<void> {
    if (!name.startsWith(RECORD_INDEX_PREFIX) || !/^\w+$/.test(name)) throw new Error(`not a record index: ${name}`);
    await this.db.execute(sql.raw(`DROP INDEX ${concurrently ? 'CONCURRENTLY ' : ''}IF EXISTS ${name}`));
    await this.db.execute(sql.raw(`DROP STATISTICS IF EXISTS ${statisticsName(name)}`));
  }

  /** Drops every record index of a table (the table was deleted). */
  async dropRecordIndexes(projectId: string, tableId: string): Promise<void> {
    for (const name of (await this.recordIndexes(projectId, tableId)).keys())
      await this.dropIndex(name, this.engine === 'postgres');
  }

  transaction<T>(work: (tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(tx));
  }

  private tables(projectId: string): SQL {
    return allOf(eq(projectDocuments.projectId, projectId), eq(projectDocuments.collection, TABLE));
  }

  /** The records of one table. */
  recordsOf(projectId: string, tableId: string): SQL {
    return allOf(
      eq(projectDocuments.projectId, projectId),
      eq(projectDocuments.collection, RECORD),
      sql`${projectDocuments.doc} ->> 'table' = ${tableId}`,
    );
  }

  async listTables(projectId: string, tx: Database = this.db): Promise<TableRow[]> {
    const rows = await tx
      .select()
      .from(projectDocuments)
      .where(this.tables(projectId))
      .orderBy(asc(projectDocuments.createTime), asc(projectDocuments.id));
    return tablesOf(rows);
  }

  async tableNamed(projectId: string, name: string, exceptId: string | undefined, tx: Database = this.db) {
    const [row] = await tx
      .select({ id: projectDocuments.id })
      .from(projectDocuments)
      .where(
        and(
          this.tables(projectId),
          sql`lower(${projectDocuments.doc} ->> 'name') = lower(${name})`,
          exceptId === undefined ? undefined : ne(projectDocuments.id, exceptId),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  async getTable(projectId: string, id: string, tx: Database = this.db, lock = false): Promise<TableRow | undefined> {
    const query = tx
      .select()
      .from(projectDocuments)
      .where(and(this.tables(projectId), eq(projectDocuments.id, id)));
    const [row] = lock ? await query.for('update') : await query;
    return row && asTable(row);
  }

  async tablesByIds(projectId: string, ids: string[], tx: Database = this.db): Promise<TableRow[]> {
    if (ids.length === 0) return [];
    const rows = await tx
      .select()
      .from(projectDocuments)
      .where(and(this.tables(projectId), inArray(projectDocuments.id, ids)));
    return tablesOf(rows);
  }

  async insertTable(projectId: string, id: string, doc: TableDoc, now: Date, tx: Database): Promise<TableRow> {
    return writtenTable(await insertDocument(tx, { projectId, collection: TABLE, id, doc }, now));
  }

  async saveTable(projectId: string, id: string, doc: TableDoc, now: Date, tx: Database = this.db): Promise<TableRow> {
    const [row] = await tx
      .update(projectDocuments)
      .set({ doc, updateTime: now })
      .where(and(this.tables(projectId), eq(projectDocuments.id, id)))
      .returning();
    if (!row) throw new Error('table vanished');
    return writtenTable(row);
  }

  /** Deletes the table and its records; false when there was no such table. */
  async deleteTable(projectId: string, id: string, tx: Database): Promise<boolean> {
    const deleted = await tx
      .delete(projectDocuments)
      .where(and(this.tables(projectId), eq(projectDocuments.id, id)))
      .returning({ id: projectDocuments.id });
    if (deleted.length === 0) return false;
    await tx.delete(projectDocuments).where(this.recordsOf(projectId, id));
    return true;
  }

  /**
   * Shift table: the table and its records copied, ids kept, from one project to another (design D3:
   * every document is scoped by its project); with `move`, then deleted where they were. The number
   * of records shifted. The caller's transaction makes both statements one step.
   */
  async shiftTable(from: string, to: string, id: string, move: boolean, tx: Database): Promise<number> {
    const table = and(this.tables(from), eq(projectDocuments.id, id));
    const shifted = or(table, this.recordsOf(from, id));
    const { rows } = await tx.execute<{ records: number }>(
      sql`with copied as (
            insert into ${projectDocuments} (project_id, collection, id, doc, create_time, update_time)
            select ${to}, collection, id, doc, create_time, update_time from ${projectDocuments} where ${shifted}
            returning collection)
          select (count(*) filter (where collection = ${RECORD}))::int as records from copied`,
    );
    if (move) await tx.delete(projectDocuments).where(shifted);
    return rows[0]?.records ?? 0;
  }

  /** A project user's department and roles (the project's `user` document); undefined when there is none. */
  async projectUser(projectId: string, id: string): Promise<{ department?: string; roles: string[] } | undefined> {
    const [row] = await this.db
      .select({ doc: projectDocuments.doc })
      .from(projectDocuments)
      .where(
        and(
          eq(projectDocuments.projectId, projectId),
          eq(projectDocuments.collection, 'user'),
          eq(projectDocuments.id, id),
        ),
      );
    if (!row) return undefined;
    const { dept, roles } = row.doc;
    return {
      ...(typeof dept === 'string' && dept !== '' ? { department: dept } : {}),
      roles: Array.isArray(roles) ? roles.filter((role): role is string => typeof role === 'string') : [],
    };
  }

  /** The project's departments (`dept` documents) as id → parent id. */
  async departments(projectId: string): Promise<Map<string, string | undefined>> {
    const rows = await this.db
      .select({ id: projectDocuments.id, parent: sql<string | null>`${projectDocuments.doc} ->> 'parent'` })
      .from(projectDocuments)
      .where(and(eq(projectDocuments.projectId, projectId), eq(projectDocuments.collection, 'dept')))
      .limit(100_000);
    return new Map(rows.map((row) => [row.id, row.parent ?? undefined]));
  }

  // ---- records ---------------------------------------------------------------------------------

  /**
   * One page of records in the query's order; with `paging`, rows after its cursor (keyset) and the
   * last row's sort key values (for the next cursor).
   */
  async listRecords(
    projectId: string,
    tableId: string,
    query: ListQuery,
    scope: SQL | undefined,
    paging?: { keys: SortKey[]; after: Array<string | null> | undefined },
  ): Promise<RecordRow[] & { lastKeys?: Array<string | null> }> {
    const rows = await this.db
      .select({
        row: projectDocuments,
        keys: paging ? keyValuesSql(paging.keys) : sql<null>`null`,
      })
      .from(projectDocuments)
      .where(
        and(
          this.recordsOf(projectId, tableId),
          scope,
          query.where,
          paging?.after ? afterCursor(paging.keys, paging.after) : undefined,
        ),
      )
      .orderBy(...query.orderBy)
      .limit(query.limit)
      .offset(query.offset);
    const records: RecordRow[] & { lastKeys?: Array<string | null> } = rows.map((row) => asRecord(row.row));
    const last = rows.at(-1);
    if (paging && last) {
      const raw: unknown = typeof last.keys === 'string' ? JSON.parse(last.keys) : last.keys;
      records.lastKeys = keyValues(paging.keys, asRecord(last.row), Array.isArray(raw) ? raw : []);
    }
    return records;
  }

  totalRecords(projectId: string, tableId: string, where: SQL | undefined, scope: SQL | undefined): Promise<ListTotal> {
    return cappedCount(this.db, projectDocuments, and(this.recordsOf(projectId, tableId), scope, where));
  }

  async getRecord(
    projectId: string,
    tableId: string,
    id: string,
    scope: SQL | undefined,
    tx: Database = this.db,
  ): Promise<RecordRow | undefined> {
    const [row] = await tx
      .select()
      .from(projectDocuments)
      .where(and(this.recordsOf(projectId, tableId), eq(projectDocuments.id, id), scope));
    return row && asRecord(row);
  }

  /** Ids of `ids` that are records of the table. */
  async existingRecords(projectId: string, tableId: string, ids: string[], tx: Database): Promise<RecordRow[]> {
    if (ids.length === 0) return [];
    const rows = await tx
      .select()
      .from(projectDocuments)
      .where(and(this.recordsOf(projectId, tableId), inArray(projectDocuments.id, ids)));
    return rows.map(asRecord);
  }

  /** Whether another record of the table has these values (jsonb equality of each). */
  async valuesTaken(
    projectId: string,
    tableId: string,
    values: Record<string, unknown>,
    exceptId: string | undefined,
    tx: Database,
  ): Promise<boolean> {
    const [row] = await tx
      .select({ id: projectDocuments.id })
      .from(projectDocuments)
      .where(
        and(
          this.recordsOf(projectId, tableId),
          exceptId === undefined ? undefined : ne(projectDocuments.id, exceptId),
          ...Object.entries(values).map(([name, value]) => sql`${dataField(name)} = ${JSON.stringify(value)}::jsonb`),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  async insertRecord(projectId: string, id: string, doc: RecordDoc, now: Date, tx: Database): Promise<RecordRow> {
    return asRecord(await insertDocument(tx, { projectId, collection: RECORD, id, doc }, now));
  }

  async saveRecord(projectId: string, tableId: string, id: string, doc: RecordDoc, now: Date, tx: Database) {
    const [row] = await tx
      .update(projectDocuments)
      .set({ doc, updateTime: now })
      .where(and(this.recordsOf(projectId, tableId), eq(projectDocuments.id, id)))
      .returning();
    return row && asRecord(row);
  }

  async deleteRecord(projectId: string, tableId: string, id: string, scope: SQL | undefined, tx: Database = this.db) {
    const deleted = await tx
      .delete(projectDocuments)
      .where(and(this.recordsOf(projectId, tableId), eq(projectDocuments.id, id), scope))
      .returning({ id: projectDocuments.id });
    return deleted.length > 0;
  }

  /** One page of the table's records that hold a value for any of `fields` (none: every record), in id order (publish). */
  async recordsWithValues(
    projectId: string,
    tableId: string,
    fields: string[],
    afterId: string,
    limit: number,
    tx: Database,
  ): Promise<Array<{ id: string; data: Record<string, unknown> }>> {
    const rows = await tx
      .select({ id: projectDocuments.id, data: sql<Record<string, unknown>>`${projectDocuments.doc} -> 'data'` })
      .from(projectDocuments)
      .where(
        and(
          this.recordsOf(projectId, tableId),
          sql`${projectDocuments.id} > ${afterId}`,
          fields.length === 0
            ? undefined
            : sql`(${projectDocuments.doc} -> 'data') ?| array[${sql.join(
                fields.map((name) => sql`${name}`),
                sql`, `,
              )}]::text[]`,
        ),
      )
      .orderBy(asc(projectDocuments.id))
      .limit(limit);
    return rows.map((row) => ({ id: row.id, data: row.data ?? {} }));
  }

  /** Replaces a record's data (publish conversions). */
  async setRecordData(projectId: string, id: string, data: Record<string, unknown>, tx: Database): Promise<void> {
    await tx
      .update(projectDocuments)
      .set({ doc: sql`jsonb_set(${projectDocuments.doc}, '{data}', ${JSON.stringify(data)}::jsonb)` })
      .where(
        and(
          eq(projectDocuments.projectId, projectId),
          eq(projectDocuments.collection, RECORD),
          eq(projectDocuments.id, id),
        ),
      );
  }
}

/** Inserts a project document written at `now`: the row. */
async function insertDocument(
  tx: Database,
  values: Pick<typeof projectDocuments.$inferInsert, 'projectId' | 'collection' | 'id' | 'doc'>,
  now: Date,
) {
  const [row] = await tx
    .insert(projectDocuments)
    .values({ ...values, createTime: now, updateTime: now })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}
