import type { Grant, ProjectPermissions, TableSetting } from '@gantry/shared';
import { and, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { projects, users } from '../../db/schema.js';
import type { CountCache } from '../../lib/count-cache.js';
import { cappedCount, type ListTotal } from '../../lib/list-count.js';
import type { ListQuery, ResourceDef } from '../../lib/list-query/list-query.js';
import type { UserRow } from '../users/user.repository.js';

/** Fields a tenant list may filter, sort and project (spec columns plus id). */
export const TENANT_RESOURCE: ResourceDef = {
  name: 'user',
  id: 'id',
  fields: {
    id: { sql: users.id, type: 'string', sort: true },
    user: { sql: users.id, type: 'string', sort: true },
    name: { sql: users.name, type: 'string', sort: true },
    industry: { sql: users.industry, type: 'string', sort: true },
    type: { sql: users.type, type: 'number', sort: true },
    createTime: { sql: users.createdAt, type: 'date', sort: true },
    status: { sql: users.status, type: 'boolean', sort: true },
    remarks: { sql: users.remarks, type: 'string' },
    logo: { sql: users.logo, type: 'string', filter: false },
    grant: { sql: users.grant, type: 'json', filter: false },
    permissions: { sql: users.permissions, type: 'json', filter: false },
  },
  defaultSort: { createTime: -1 },
  defaultLimit: 20,
  maxLimit: 10_000,
};

/** Tables whose preferences one user may keep (the console has a handful; the row is read on every call). */
export const TABLE_SETTINGS_MAX = 50;

export interface TenantValues {
  name: string;
  type: number;
  industry: string;
  /** None (null) for a tenant made by single sign-on until the administrator grants one. */
  grant: Grant | null;
  remarks?: string | null | undefined;
  logo?: string | null | undefined;
  permissions: ProjectPermissions;
}

export class TenantRepository {
  constructor(
    private readonly db: Database,
    /** The project totals cache, forgotten when a tenant-wide change touches its projects. */
    private readonly projectCounts?: CountCache<ListTotal>,
  ) {}

  async list(query: ListQuery, scope: SQL): Promise<{ rows: UserRow[]; total?: ListTotal }> {
    const where = and(scope, query.where);
    const rows = await this.db
      .select()
      .from(users)
      .where(where)
      .orderBy(...query.orderBy)
      .limit(query.limit)
      .offset(query.offset);
    if (!query.withCount) return { rows };
    return { rows, total: await this.count(where) };
  }

  /** Exact up to COUNT_CAP tenants, estimated above (`cappedCount`). */
  count(where: SQL | undefined): Promise<ListTotal> {
    return cappedCount(this.db, users, where);
  }

  async find(id: string, db: Database = this.db, lock = false): Promise<UserRow | undefined> {
    const query = db
      .select()
      .from(users)
      .where(and(eq(users.id, id), eq(users.isAdmin, false)));
    const [row] = lock ? await query.for('update') : await query;
    return row;
  }

  /** Any user record, the administrator's included (for reading one's own preferences). */
  async findUser(id: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  /** Inserts; false when the id is taken. */
  async create(
    db: Database,
    id: string,
    values: TenantValues,
    passwordHash: string | null,
    at: Date,
  ): Promise<boolean> {
    const rows = await db
      .insert(users)
      .values({ id, ...values, passwordHash, isAdmin: false, createdAt: at, updatedAt: at })
      .onConflictDoNothing()
      .returning({ id: users.id });
    return rows.length > 0;
  }

  async update(db: Database, id: string, values: Partial<TenantValues>, at: Date): Promise<void> {
    await db
      .update(users)
      .set({ ...values, updatedAt: at })
      .where(eq(users.id, id));
  }

  /**
   * Merges table preferences by table name (`null` removes one) in one statement; false (nothing
   * saved) when the user would then keep more than TABLE_SETTINGS_MAX tables.
   */
  async mergeTableSettings(
    id: string,
    patch: Record<string, TableSetting | null>,
    db: Database = this.db,
  ): Promise<boolean> {
    const removed = Object.keys(patch).filter((name) => patch[name] === null);
    const added = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== null));
    const merged = sql`(${users.tableSettings} - ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(removed)}::jsonb))) || ${JSON.stringify(added)}::jsonb`;
    const rows = await db
      .update(users)
      .set({ tableSettings: merged })
      .where(and(eq(users.id, id), sql`(SELECT count(*) FROM jsonb_object_keys(${merged})) <= ${TABLE_SETTINGS_MAX}`))
      .returning({ id: users.id });
    return rows.length > 0;
  }

  async setStatus(db: Database, id: string, status: boolean, at: Date): Promise<void> {
    await db.update(users).set({ status, updatedAt: at }).where(eq(users.id, id));
  }

  async setPassword(db: Database, id: string, passwordHash: string, at: Date): Promise<void> {
    await db.update(users).set({ passwordHash, updatedAt: at }).where(eq(users.id, id));
  }

  async delete(db: Database, id: string): Promise<void> {
    await db.delete(users).where(and(eq(users.id, id), eq(users.isAdmin, false)));
  }

  async projectCount(db: Database, id: string): Promise<number> {
    const [row] = await db.select({ n: count() }).from(projects).where(eq(projects.userId, id));
    return row?.n ?? 0;
  }

  /** Sets the status of all (or the listed) projects of a tenant; returns the ids changed. */
  async setProjectsStatus(db: Database, tenantId: string, status: boolean, ids?: string[]): Promise<string[]> {
    const where = [eq(projects.userId, tenantId)];
    if (ids) where.push(inArray(projects.id, ids));
    const rows = await db
      .update(projects)
      .set({ status })
      .where(and(...where))
      .returning({ id: projects.id });
    this.projectCounts?.invalidate();
    return rows.map((r) => r.id);
  }

  /**
   * Locks every project row of a tenant, in id order. Taken before the tenant's own row: a project
   * change locks its project row, then its owner's (the licence pool), so the same order here keeps
   * a tenant-wide change and a project change from waiting on each other (a deadlock on PostgreSQL).
   */
  async lockProjects(db: Database, tenantId: string): Promise<void> {
    await db
      .select({ id: projects.id })
      .from(projects)
      .where(eq(projects.userId, tenantId))
      .orderBy(projects.id)
      .for('update');
  }

  async projectIdsOf(db: Database, tenantId: string, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await db
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.userId, tenantId), inArray(projects.id, ids)));
    return rows.map((r) => r.id);
  }
}
