import { and, count, eq, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { projects, users } from '../../db/schema.js';
import type { ListQuery, ResourceDef } from '../../lib/list-query/list-query.js';

export type ProjectRow = typeof projects.$inferSelect;
export type ProjectInsert = typeof projects.$inferInsert;
export type ProjectWithOwner = ProjectRow & { ownerName: string };

/** Fields a project list may filter, sort and project. */
export const PROJECT_RESOURCE: ResourceDef = {
  name: 'project',
  id: 'id',
  fields: {
    id: { sql: projects.id, type: 'string', sort: true },
    name: { sql: projects.name, type: 'string', sort: true },
    status: { sql: projects.status, type: 'boolean', sort: true },
    user: { sql: projects.userId, type: 'string', sort: true },
    createTime: { sql: projects.createdAt, type: 'date', sort: true },
    industry: { sql: projects.industry, type: 'string', sort: true },
    remarks: { sql: projects.remarks, type: 'string' },
    bgColor: { sql: projects.bgColor, type: 'string' },
    planId: { sql: projects.planId, type: 'string' },
    port: { sql: projects.port, type: 'number', sort: true },
    domain: { sql: projects.domain, type: 'string' },
    projectType: { sql: projects.projectType, type: 'string' },
    type: { sql: projects.templateId, type: 'string' },
    online: { sql: projects.online, type: 'boolean' },
    hasSSO: { sql: projects.hasSso, type: 'boolean' },
    isUseDomain: { sql: projects.isUseDomain, type: 'boolean' },
    isUseHttps: { sql: projects.isUseHttps, type: 'boolean' },
    grant: { sql: projects.grant, type: 'json', filter: false },
    license: { sql: projects.usage, type: 'json', filter: false },
    _stats_: { sql: projects.stats, type: 'json', filter: false },
    advanced: { sql: projects.advanced, type: 'json', filter: false },
    logo: { sql: projects.logo, type: 'string', filter: false },
    extra: { sql: projects.extra, type: 'json', filter: false },
  },
  defaultSort: { createTime: -1 },
  defaultLimit: 48,
  maxLimit: 10_000,
};

const withOwner = { project: projects, ownerName: users.name };

export class ProjectRepository {
  constructor(private readonly db: Database) {}

  async list(query: ListQuery, scope: SQL | undefined): Promise<{ rows: ProjectWithOwner[]; total?: number }> {
    const where = and(scope, query.where);
    const found = await this.db
      .select(withOwner)
      .from(projects)
      .innerJoin(users, eq(users.id, projects.userId))
      .where(where)
      .orderBy(...query.orderBy)
      .limit(query.limit)
      .offset(query.offset);
    const rows = found.map((r) => ({ ...r.project, ownerName: r.ownerName }));
    if (!query.withCount) return { rows };
    return { rows, total: await this.count(where) };
  }

  async count(where: SQL | undefined): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(projects).where(where);
    return row?.n ?? 0;
  }

  async find(id: string, db: Database = this.db, lock = false): Promise<ProjectWithOwner | undefined> {
    const query = db
      .select(withOwner)
      .from(projects)
      .innerJoin(users, eq(users.id, projects.userId))
      .where(eq(projects.id, id));
    const [row] = lock ? await query.for('update', { of: projects }) : await query;
    return row && { ...row.project, ownerName: row.ownerName };
  }

  async available(scope: SQL | undefined, limit: number): Promise<Array<{ id: string; name: string }>> {
    return this.db
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(and(scope, eq(projects.status, true)))
      .orderBy(projects.name, projects.id)
      .limit(limit);
  }

  async insert(db: Database, values: ProjectInsert): Promise<void> {
    await db.insert(projects).values(values);
  }

  async update(db: Database, id: string, values: Partial<ProjectInsert>): Promise<void> {
    await db.update(projects).set(values).where(eq(projects.id, id));
  }

  async delete(db: Database, id: string): Promise<void> {
    await db.delete(projects).where(eq(projects.id, id));
  }

  async ownerStatus(db: Database, ownerId: string): Promise<boolean | undefined> {
    const [row] = await db.select({ status: users.status }).from(users).where(eq(users.id, ownerId));
    return row?.status;
  }

  async permissionsOf(ownerId: string): Promise<unknown> {
    const [row] = await this.db.select({ p: users.permissions }).from(users).where(eq(users.id, ownerId));
    return row?.p;
  }
}
