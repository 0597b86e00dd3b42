import type { Industry } from '@gantry/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { projectBackups, projects, tasks, templates } from '../../db/schema.js';
import { templateScope } from '../../policy/policy.js';
import type { UserRow } from '../users/user.repository.js';

export type TemplateRow = typeof templates.$inferSelect;
export type TemplateInsert = typeof templates.$inferInsert;

/** `%` `_` and `\` of a searched text taken literally by ILIKE. */
const literalLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** All SQL of templates: the gallery, one template, installs, built-ins and failed installs. */
export class TemplateRepository {
  constructor(private readonly db: Database) {}

  /** The gallery: what `user` may see, by name part and industry; most installed first. */
  async list(
    user: UserRow | undefined,
    filter: { nameContains?: string | undefined; industry?: Industry | '' | undefined },
    page: { skip: number; limit: number },
  ): Promise<{ rows: TemplateRow[]; total: number }> {
    const where = and(
      templateScope(user),
      filter.nameContains ? sql`${templates.name} ilike ${`%${literalLike(filter.nameContains)}%`}` : undefined,
      filter.industry ? eq(templates.industry, filter.industry) : undefined,
    );
    // One statement: the page and the total beside each row (a count of its own only for a page past the end).
    const page_ = await this.db
      .select({ row: templates, total: sql<number>`(count(*) over ())::int` })
      .from(templates)
      .where(where)
      .orderBy(desc(templates.numInstalled), desc(templates.updatedAt), templates.id)
      .limit(page.limit)
      .offset(page.skip);
    const rows = page_.map((entry) => entry.row);
    if (page_.length > 0 || page.skip === 0) return { rows, total: page_[0]?.total ?? 0 };
    const [counted] = await this.db.select({ n: sql<number>`count(*)::int` }).from(templates).where(where);
    return { rows, total: counted?.n ?? 0 };
  }

  async find(id: string): Promise<TemplateRow | undefined> {
    const [row] = await this.db.select().from(templates).where(eq(templates.id, id));
    return row;
  }

  async insert(row: TemplateInsert): Promise<void> {
    await this.db.insert(templates).values(row);
  }

  /** A built-in (re)written from code: its card and package; its installs are kept. */
  async upsertBuiltin(row: TemplateInsert): Promise<void> {
    await this.db
      .insert(templates)
      .values(row)
      .onConflictDoUpdate({
        target: templates.id,
        set: {
          name: row.name,
          developer: row.developer,
          contact: row.contact ?? '',
          industry: row.industry,
          intro: row.intro ?? '',
          description: row.description ?? '',
          appInfo: row.appInfo,
          modules: row.modules,
          file: row.file,
          bytes: row.bytes,
          version: row.version,
          updatedAt: row.updatedAt,
        },
      });
  }

  async update(id: string, changes: Partial<TemplateInsert>): Promise<TemplateRow | undefined> {
    const [row] = await this.db.update(templates).set(changes).where(eq(templates.id, id)).returning();
    return row;
  }

  async remove(id: string): Promise<TemplateRow | undefined> {
    const [row] = await this.db.delete(templates).where(eq(templates.id, id)).returning();
    return row;
  }

  async countInstall(id: string): Promise<void> {
    await this.db
      .update(templates)
      .set({ numInstalled: sql`${templates.numInstalled} + 1` })
      .where(eq(templates.id, id));
  }

  /** Every package file a template row names (the rest of the folder is left over). */
  async files(): Promise<Set<string>> {
    const rows = await this.db.select({ file: templates.file }).from(templates);
    return new Set(rows.map((row) => row.file));
  }

  /**
   * Removes a project made for an install that did not commit (no restore record of `taskId`): a
   * failed install leaves no half project. Answers whether it was removed.
   */
  async removeUninstalled(projectId: string, taskId: string): Promise<boolean> {
    const removed = await this.db
      .delete(projects)
      .where(
        and(
          eq(projects.id, projectId),
          sql`not exists (select 1 from ${projectBackups} where ${projectBackups.taskId} = ${taskId})`,
        ),
      )
      .returning({ id: projects.id });
    return removed.length > 0;
  }

  /** Install tasks that ended failed (a stopped server among them): their task id and project id. */
  async failedInstalls(type: string): Promise<Array<{ taskId: string; projectId: string }>> {
    const rows = await this.db
      .select({ taskId: tasks.id, projectId: sql<string | null>`${tasks.params}->>'projectId'` })
      .from(tasks)
      .where(
        and(
          eq(tasks.type, type),
          eq(tasks.status, 'failed'),
          sql`exists (select 1 from ${projects} where ${projects.id} = ${tasks.params}->>'projectId')`,
        ),
      );
    return rows.flatMap((row) => (row.projectId ? [{ taskId: row.taskId, projectId: row.projectId }] : []));
  }
}
