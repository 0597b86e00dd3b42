import type { TableDefinition } from '@gantry/shared';
import { and, asc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { projectDocuments, projects } from '../../db/schema.js';
import { cappedCount, type ListTotal } from '../../lib/list-count.js';
import type { ListQuery } from '../../lib/list-query/list-query.js';

/**
 * All SQL of tables and records. Both live in `project_documents` (design D3): a table is a document
 * of the `table` collection, a record one of `table_record` whose `doc.table` is its table's id and
 * `doc.data` its values. Every statement is scoped by project and collection.
 */

/** A table document's `doc`. */
export interface TableDoc {
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
}

/** A record document's `doc`. */
export interface RecordDoc {
  table: string;
  data: Record<string, unknown>;
  createdBy?: string;
  updatedBy?: string;
  /** The creator's department and roles when a project user created it (record permissions). */
  createdDept?: string;
  createdRoles?: string[];
}

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

const asTable = (row: typeof projectDocuments.$inferSelect): TableRow => ({
  id: row.id,
  doc: row.doc as unknown as TableDoc,
  createTime: row.createTime,
  updateTime: row.updateTime,
});
const asRecord = (row: typeof projectDocuments.$inferSelect): RecordRow => ({
  id: row.id,
  doc: row.doc as unknown as RecordDoc,
  createTime: row.createTime,
  updateTime: row.updateTime,
});

/** A value of the record's data as jsonb (JSON null read as SQL NULL). */
export function dataField(name: string): SQL {
  return sql`nullif(${projectDocuments.doc} #> ${`{data,${name}}`}::text[], 'null'::jsonb)`;
}

export class TableRepository {
  constructor(private readonly db: Database) {}

  transaction<T>(work: (tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(tx as unknown as Database));
  }

  private tables(projectId: string): SQL {
    return and(eq(projectDocuments.projectId, projectId), eq(projectDocuments.collection, TABLE)) as SQL;
  }

  /** The records of one table. */
  recordsOf(projectId: string, tableId: string): SQL {
    return and(
      eq(projectDocuments.projectId, projectId),
      eq(projectDocuments.collection, RECORD),
      sql`${projectDocuments.doc} ->> 'table' = ${tableId}`,
    ) as SQL;
  }

  /** The project's table count limit (`flow.tableCount` of its grant; 0 without one), its row locked. */
  async lockProjectTableLimit(projectId: string, tx: Database): Promise<number> {
    const [row] = await tx
      .select({ grant: projects.grant })
      .from(projects)
      .where(eq(projects.id, projectId))
      .for('update');
    return row?.grant?.flow?.tableCount ?? 0;
  }

  async listTables(projectId: string): Promise<TableRow[]> {
    const rows = await this.db
      .select()
      .from(projectDocuments)
      .where(this.tables(projectId))
      .orderBy(asc(projectDocuments.createTime), asc(projectDocuments.id));
    return rows.map(asTable);
  }

  async countTables(projectId: string, tx: Database = this.db): Promise<number> {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(projectDocuments)
      .where(this.tables(projectId));
    return row?.n ?? 0;
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
    return rows.map(asTable);
  }

  async insertTable(projectId: string, id: string, doc: TableDoc, now: Date, tx: Database): Promise<TableRow> {
    const [row] = await tx
      .insert(projectDocuments)
      .values({
        projectId,
        collection: TABLE,
        id,
        doc: doc as unknown as Record<string, unknown>,
        createTime: now,
        updateTime: now,
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return asTable(row);
  }

  async saveTable(projectId: string, id: string, doc: TableDoc, now: Date, tx: Database = this.db): Promise<TableRow> {
    const [row] = await tx
      .update(projectDocuments)
      .set({ doc: doc as unknown as Record<string, unknown>, updateTime: now })
      .where(and(this.tables(projectId), eq(projectDocuments.id, id)))
      .returning();
    if (!row) throw new Error('table vanished');
    return asTable(row);
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

  async listRecords(
    projectId: string,
    tableId: string,
    query: ListQuery,
    scope: SQL | undefined,
  ): Promise<RecordRow[]> {
    const rows = await this.db
      .select()
      .from(projectDocuments)
      .where(and(this.recordsOf(projectId, tableId), scope, query.where))
      .orderBy(...query.orderBy)
      .limit(query.limit)
      .offset(query.offset);
    return rows.map(asRecord);
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
    const [row] = await tx
      .insert(projectDocuments)
      .values({
        projectId,
        collection: RECORD,
        id,
        doc: doc as unknown as Record<string, unknown>,
        createTime: now,
        updateTime: now,
      })
      .returning();
    if (!row) throw new Error('insert returned no row');
    return asRecord(row);
  }

  async saveRecord(projectId: string, tableId: string, id: string, doc: RecordDoc, now: Date, tx: Database) {
    const [row] = await tx
      .update(projectDocuments)
      .set({ doc: doc as unknown as Record<string, unknown>, updateTime: now })
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
