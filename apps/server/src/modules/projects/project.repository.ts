import type { ProjectPermissions } from '@gantry/shared';
import { and, eq, getTableColumns, is, type SQL, sql } from 'drizzle-orm';
import { PgDialect, PgTimestamp } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/database.js';
import { projectCounts, projects, serialCounters, users } from '../../db/schema.js';
import { CountCache } from '../../lib/count-cache.js';
import { cappedCount, type ListTotal } from '../../lib/list-count.js';
import type { ListQuery, ResourceDef } from '../../lib/list-query/list-query.js';
import { tableCountSql } from '../licence/project-measures.js';

export type ProjectRow = typeof projects.$inferSelect;
export type ProjectInsert = typeof projects.$inferInsert;
/** A project row with its owner's name and its table count (`licence/project-measures.ts`). */
export type ProjectWithOwner = ProjectRow & { ownerName: string; tables: number };

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

/** A project's columns with its owner's name and its table count, flat: drizzle maps each row straight to a `ProjectWithOwner`. */
const withOwner = { ...getTableColumns(projects), ownerName: users.name, tables: tableCountSql(projects.id) };

/**
 * Column kinds whose values the drivers' own parsers give as drizzle's mapping does (text, booleans,
 * int4 as numbers, jsonb parsed), and the timestamps, which drizzle has both drivers give as text
 * and which `instant` reads as drizzle does (Date taken as well, should a driver parse them).
 */
const DRIVER_MAPPED = new Set(['PgText', 'PgBoolean', 'PgInteger', 'PgJsonb']);
const TIMESTAMPS = ['createdAt', 'updatedAt', 'usageReportedAt'] as const;

/**
 * `withOwner` as one SQL text, each column aliased to its field name, so the driver hands back rows
 * already shaped as `ProjectWithOwner` and drizzle neither walks these columns to build each page's
 * statement nor maps each value of each row (checking its column's kind as it goes): together about
 * a fifth of the server's CPU per page on the embedded engine (issue 33). Rendered once; a column of
 * another kind stops the server at start rather than answer differently from `find`.
 */
const PAGE_COLUMNS = (() => {
  for (const [key, column] of Object.entries(getTableColumns(projects))) {
    const known = is(column, PgTimestamp)
      ? column.withTimezone && TIMESTAMPS.some((t) => t === key)
      : DRIVER_MAPPED.has(column.columnType);
    if (!known) throw new Error(`projects.${key}: ${column.columnType} is not read by the list's page`);
  }
  const columns = sql.join(
    Object.entries(withOwner).map(([key, field]) => sql`${field} as ${sql.identifier(key)}`),
    sql`, `,
  );
  const rendered = new PgDialect().sqlToQuery(columns);
  if (rendered.params.length > 0) throw new Error('the page columns take no parameters');
  return sql.raw(rendered.sql);
})();

/** A row of the list's page as the driver gives it: a project with its owner, and a tenant's own total when asked with it. */
type PageRow = Omit<ProjectWithOwner, (typeof TIMESTAMPS)[number]> & {
  createdAt: Date | string;
  updatedAt: Date | string;
  usageReportedAt: Date | string | null;
  total?: number | string | bigint;
};

/** As drizzle reads a timestamptz's text (`2026-11-29 16:08:59.629+00`). */
const instant = (value: Date | string): Date => (typeof value === 'string' ? new Date(value) : value);

function projectOf(row: PageRow): ProjectWithOwner {
  const { createdAt, updatedAt, usageReportedAt } = row;
  return {
    ...row,
    createdAt: instant(createdAt),
    updatedAt: instant(updatedAt),
    usageReportedAt: usageReportedAt === null ? null : instant(usageReportedAt),
  };
}

const COUNT_TTL_MS = 3_000;

/**
 * A total `project_counts` keeps exactly: the projects of one owner or of all owners (undefined),
 * of one status or of both (undefined).
 */
export interface MaintainedTotal {
  userId: string | undefined;
  status: boolean | undefined;
}

/**
 * The next serial number of a project extension field (its counter row, locked until `tx` ends):
 * the last given + `step`. The first use of a counter starts after the highest number the projects
 * already hold in that field (the digits ending its values; projects numbered before the counter
 * existed), or at `start`.
 */
export async function nextProjectSerial(
  tx: Database,
  field: string,
  options: { start: number; step: number },
): Promise<number> {
  const name = `project.${field}`;
  const [taken] = await tx
    .update(serialCounters)
    .set({ last: sql`${serialCounters.last} + ${options.step}` })
    .where(eq(serialCounters.name, name))
    .returning({ last: serialCounters.last });
  if (taken) return Number(taken.last);
  const top = sql`(select max((substring(${projects.extra} ->> ${field} from '([0-9]+)$'))::numeric) from ${projects})`;
  const [first] = await tx
    .insert(serialCounters)
    .values({ name, last: sql`coalesce(${top} + ${options.step}, ${options.start})` })
    .onConflictDoUpdate({ target: serialCounters.name, set: { last: sql`${serialCounters.last} + ${options.step}` } })
    .returning({ last: serialCounters.last });
  return Number(first?.last);
}

function maintainedWhere({ userId, status }: MaintainedTotal): SQL | undefined {
  return and(
    userId === undefined ? undefined : eq(projectCounts.userId, userId),
    status === undefined ? undefined : eq(projectCounts.status, status),
  );
}

/**
 * One owner's total (a tenant's own list) as a column of the page's statement: kept live in
 * `project_counts`, so it is read in the same round trip rather than by a second statement.
 */
function liveTotal(maintained: MaintainedTotal | undefined): SQL<number> | undefined {
  if (maintained?.userId === undefined) return undefined;
  return sql<number>`(select coalesce(sum(${projectCounts.n}), 0) from ${projectCounts} where ${maintainedWhere(maintained)})`.mapWith(
    Number,
  );
}

export class ProjectRepository {
  /** Shared with every repository that writes projects (tenants disable theirs). */
  readonly counts = new CountCache<ListTotal>(COUNT_TTL_MS);

  constructor(
    private readonly db: Database,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * The page's ids first (an index walk over the sort, skipping `offset` entries without touching
   * the rows), then only those rows joined to their owners: deep pages stay cheap.
   */
  private page(query: ListQuery, where: SQL | undefined) {
    return this.db
      .select({ id: projects.id })
      .from(projects)
      .where(where)
      .orderBy(...query.orderBy)
      .limit(query.limit)
      .offset(query.offset)
      .as('page');
  }

  /** The page's rows with their owners' names (for `projectViewOf`). */
  async list(
    query: ListQuery,
    scope: SQL | undefined,
    maintained?: MaintainedTotal,
  ): Promise<{ rows: ProjectWithOwner[]; total?: ListTotal }> {
    const where = and(scope, query.where);
    const page = this.page(query, where);
    const live = query.withCount ? liveTotal(maintained) : undefined;
    const { rows } = await this.db.execute<PageRow>(
      sql`select ${PAGE_COLUMNS}${live ? sql`, ${live} as "total"` : sql``} from ${page}
        inner join ${projects} on ${eq(projects.id, page.id)} inner join ${users} on ${eq(users.id, projects.userId)}
        order by ${sql.join(query.orderBy, sql`, `)}`,
    );
    const found = rows.map(projectOf);
    if (!query.withCount) return { rows: found };
    const total = rows[0]?.total;
    if (live && total !== undefined) return { rows: found, total: { count: Number(total), estimated: false } };
    return { rows: found, total: await this.count(where, maintained) };
  }

  /**
   * The page as one JSON array text, each item `view` (an SQL expression over `projects` joined to
   * the owner in `users`), aggregated in the page's order: the server does no work per row.
   */
  async listJson(
    query: ListQuery,
    scope: SQL | undefined,
    view: SQL,
    maintained?: MaintainedTotal,
  ): Promise<{ json: string; total?: ListTotal }> {
    const where = and(scope, query.where);
    const page = this.page(query, where);
    const live = query.withCount ? liveTotal(maintained) : undefined;
    // As text: node-postgres would parse a json column.
    const [found] = await this.db
      .select({
        json: sql<string>`coalesce(json_agg(${view} order by ${sql.join(query.orderBy, sql`, `)}), '[]')::text`,
        ...(live && { total: live }),
      })
      .from(page)
      .innerJoin(projects, eq(projects.id, page.id))
      .innerJoin(users, eq(users.id, projects.userId));
    const json = found?.json ?? '[]';
    if (!query.withCount) return { json };
    if (live && found && 'total' in found) return { json, total: { count: Number(found.total), estimated: false } };
    return { json, total: await this.count(where, maintained) };
  }

  /**
   * The total of a list. A filter of owner and/or status only (`maintained`, which must describe
   * `where` exactly) is read from `project_counts`: one owner's live, all owners' summed and kept
   * like the other totals. Any other filter is counted up to COUNT_CAP and estimated above it
   * (`cappedCount`), kept COUNT_TTL_MS in `counts` (single flight, stale while revalidate).
   */
  async count(where: SQL | undefined, maintained?: MaintainedTotal): Promise<ListTotal> {
    const now = this.clock().getTime();
    if (maintained?.userId !== undefined) {
      return { count: await this.maintainedTotal(maintained), estimated: false };
    }
    if (maintained) {
      return this.counts.get(`maintained|${maintained.status}`, now, async () => ({
        count: await this.maintainedTotal(maintained),
        estimated: false,
      }));
    }
    const { sql: text, params } = this.db.select({ id: projects.id }).from(projects).where(where).toSQL();
    return this.counts.get(`${text}|${JSON.stringify(params)}`, now, () => cappedCount(this.db, projects, where));
  }

  private async maintainedTotal(maintained: MaintainedTotal): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`coalesce(sum(${projectCounts.n}), 0)`.mapWith(Number) })
      .from(projectCounts)
      .where(maintainedWhere(maintained));
    return row?.n ?? 0;
  }

  async find(id: string, db: Database = this.db, lock = false): Promise<ProjectWithOwner | undefined> {
    const query = db
      .select(withOwner)
      .from(projects)
      .innerJoin(users, eq(users.id, projects.userId))
      .where(eq(projects.id, id));
    const [row] = lock ? await query.for('update', { of: projects }) : await query;
    return row;
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
    this.counts.invalidate();
  }

  async update(db: Database, id: string, values: Partial<ProjectInsert>): Promise<void> {
    await db.update(projects).set(values).where(eq(projects.id, id));
    this.counts.invalidate();
  }

  /** Changes no field a list filters on (usage reports, keys, certificates): totals stay valid. */
  async updateUnlisted(
    db: Database,
    id: string,
    values: Pick<
      Partial<ProjectInsert>,
      'usage' | 'stats' | 'online' | 'usageReportedAt' | 'runtimeKeyHash' | 'certKey' | 'certPem' | 'updatedAt'
    >,
  ): Promise<void> {
    await db.update(projects).set(values).where(eq(projects.id, id));
  }

  async delete(db: Database, id: string): Promise<void> {
    await db.delete(projects).where(eq(projects.id, id));
    this.counts.invalidate();
  }

  async ownerStatus(db: Database, ownerId: string): Promise<boolean | undefined> {
    const [row] = await db.select({ status: users.status }).from(users).where(eq(users.id, ownerId));
    return row?.status;
  }

  async permissionsOf(ownerId: string): Promise<ProjectPermissions | undefined> {
    const [row] = await this.db.select({ p: users.permissions }).from(users).where(eq(users.id, ownerId));
    return row?.p;
  }
}
