import type { Collection } from '@gantry/shared';
import { and, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { projectCollectionStats, projectDocuments, projects, users } from '../../db/schema.js';
import { cappedCount, type ListTotal } from '../../lib/list-count.js';
import type { FieldDef, ListQuery, ResourceDef } from '../../lib/list-query/list-query.js';
import { allOf } from '../../lib/sql-conditions.js';

export type DocumentRow = typeof projectDocuments.$inferSelect;

/** A name the client may use for a value inside a document: dotted segments, an array index allowed. */
const FIELD_NAME = /^[A-Za-z_][\w-]{0,63}(\.[\w-]{1,64}){0,7}$/;

/** A value inside `doc` as jsonb, JSON null read as SQL NULL (so the query language's NULL rules hold). */
function documentField(name: string): FieldDef | undefined {
  if (!FIELD_NAME.test(name)) return undefined;
  const path = `{${name.split('.').join(',')}}`;
  return { sql: sql`nullif(${projectDocuments.doc} #> ${path}::text[], 'null'::jsonb)`, type: 'document', sort: true };
}

/**
 * The generic data layer's list: the id and the times are columns (the id is `id` or `_id`), every
 * other name is a path into the document. Sorting by a document value reads the whole collection of
 * the project (no index can serve every path); the statement limit bounds it.
 */
export const DOCUMENT_RESOURCE: ResourceDef = {
  name: 'document',
  id: 'id',
  fields: {
    id: { sql: projectDocuments.id, type: 'string', sort: true },
    _id: { sql: projectDocuments.id, type: 'string', sort: true },
    createTime: { sql: projectDocuments.createTime, type: 'date', sort: true },
    updateTime: { sql: projectDocuments.updateTime, type: 'date', sort: true },
  },
  resolve: documentField,
  defaultSort: { createTime: -1 },
  defaultLimit: 100,
  maxLimit: 10_000,
};

/** What the data layer needs to know of a project: its owner, and whether it and its tenant are enabled. */
export interface ProjectAccess {
  ownerId: string;
  name: string;
  enabled: boolean;
}

export interface CollectionStats {
  collection: string;
  documents: number;
  bytes: number;
}

/** All SQL of project documents. Every statement is scoped by project and collection. */
export class DocumentRepository {
  constructor(private readonly db: Database) {}

  async projectAccess(projectId: string, db: Database = this.db): Promise<ProjectAccess | undefined> {
    const [row] = await db
      .select({ ownerId: projects.userId, name: projects.name, projectOn: projects.status, ownerOn: users.status })
      .from(projects)
      .innerJoin(users, eq(users.id, projects.userId))
      .where(eq(projects.id, projectId))
      .limit(1);
    return row && { ownerId: row.ownerId, name: row.name, enabled: row.projectOn && row.ownerOn };
  }

  private scope(projectId: string, collection: Collection): SQL {
    return allOf(eq(projectDocuments.projectId, projectId), eq(projectDocuments.collection, collection));
  }

  list(projectId: string, collection: Collection, query: ListQuery): Promise<DocumentRow[]> {
    return this.db
      .select()
      .from(projectDocuments)
      .where(and(this.scope(projectId, collection), query.where))
      .orderBy(...query.orderBy)
      .limit(query.limit)
      .offset(query.offset);
  }

  /** Without a filter the maintained total (exact); with one, exact up to the count cap. */
  async total(projectId: string, collection: Collection, where: SQL | undefined): Promise<ListTotal> {
    if (where === undefined) {
      const [row] = await this.db
        .select({ documents: projectCollectionStats.documents })
        .from(projectCollectionStats)
        .where(and(eq(projectCollectionStats.projectId, projectId), eq(projectCollectionStats.collection, collection)));
      return { count: row?.documents ?? 0, estimated: false };
    }
    return cappedCount(this.db, projectDocuments, and(this.scope(projectId, collection), where));
  }

  async get(projectId: string, collection: Collection, id: string): Promise<DocumentRow | undefined> {
    const [row] = await this.db
      .select()
      .from(projectDocuments)
      .where(and(this.scope(projectId, collection), eq(projectDocuments.id, id)));
    return row;
  }

  /** Undefined when the id is taken. */
  async insert(row: DocumentRow, db: Database = this.db): Promise<DocumentRow | undefined> {
    const [inserted] = await db.insert(projectDocuments).values(row).onConflictDoNothing().returning();
    return inserted;
  }

  /** Creates or replaces the whole document; a replaced one keeps its createTime. */
  async put(row: DocumentRow, db: Database = this.db): Promise<DocumentRow> {
    const [saved] = await db
      .insert(projectDocuments)
      .values(row)
      .onConflictDoUpdate({
        target: [projectDocuments.projectId, projectDocuments.collection, projectDocuments.id],
        set: { doc: row.doc, updateTime: row.updateTime },
      })
      .returning();
    if (!saved) throw new Error('upsert returned no row');
    return saved;
  }

  /** Merges `patch` into the document's top level (`doc || patch`); undefined when there is none. */
  async merge(
    projectId: string,
    collection: Collection,
    id: string,
    patch: Record<string, unknown>,
    now: Date,
    db: Database = this.db,
  ): Promise<DocumentRow | undefined> {
    const [saved] = await db
      .update(projectDocuments)
      .set({ doc: sql`${projectDocuments.doc} || ${JSON.stringify(patch)}::jsonb`, updateTime: now })
      .where(and(this.scope(projectId, collection), eq(projectDocuments.id, id)))
      .returning();
    return saved;
  }

  async delete(projectId: string, collection: Collection, id: string, db: Database = this.db): Promise<boolean> {
    const deleted = await db
      .delete(projectDocuments)
      .where(and(this.scope(projectId, collection), eq(projectDocuments.id, id)))
      .returning({ id: projectDocuments.id });
    return deleted.length > 0;
  }

  /** The collections that hold documents, with their totals, in name order. */
  stats(projectId: string): Promise<CollectionStats[]> {
    return this.db
      .select({
        collection: projectCollectionStats.collection,
        documents: projectCollectionStats.documents,
        bytes: projectCollectionStats.bytes,
      })
      .from(projectCollectionStats)
      .where(and(eq(projectCollectionStats.projectId, projectId), gt(projectCollectionStats.documents, 0)))
      .orderBy(projectCollectionStats.collection);
  }
}
