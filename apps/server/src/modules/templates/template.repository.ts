import { type Industry, TaskState } from '@gantry/shared';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { projectBackups, projects, tasks, templates } from '../../db/schema.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import { mayViewTemplate, templateScope } from '../../policy/policy.js';
import type { UserRow } from '../users/user.repository.js';

export type TemplateRow = typeof templates.$inferSelect;
export type TemplateInsert = typeof templates.$inferInsert;

/** What the gallery and preview show of a row (not the package's file, size, version or documents). */
const CARD = {
  id: templates.id,
  name: templates.name,
  developer: templates.developer,
  contact: templates.contact,
  industry: templates.industry,
  intro: templates.intro,
  cover: templates.cover,
  description: templates.description,
  images: templates.images,
  appInfo: templates.appInfo,
  planDetail: templates.planDetail,
  source: templates.source,
  ownerId: templates.ownerId,
  published: templates.published,
  numInstalled: templates.numInstalled,
  createdAt: templates.createdAt,
  updatedAt: templates.updatedAt,
};
export type TemplateCard = Pick<TemplateRow, keyof typeof CARD>;

type GalleryPage = { rows: TemplateCard[]; total: number };

/** How long the gallery's copy of the cards is used at most (what a missed change message can cost). */
export const GALLERY_CACHE_MS = 5_000;
/** Templates the gallery holds in memory at most; with more, every search is a statement. */
export const GALLERY_MEMORY_MAX = 5_000;
const GALLERY_ORDER = [desc(templates.numInstalled), desc(templates.updatedAt), templates.id];

/** `%` `_` and `\` of a searched text taken literally by ILIKE. */
const literalLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** All SQL of templates: the gallery, one template, installs, built-ins and failed installs. */
export class TemplateRepository {
  /**
   * Every template's card, in gallery order, as last read: the gallery is read far more often than
   * templates change, and 1,000 cards are a few hundred KB. Dropped by every template write here
   * and, through the invalidation bus, in every process sharing the database; read again after
   * GALLERY_CACHE_MS at most. Undefined cards: more than GALLERY_MEMORY_MAX templates (SQL then).
   */
  private catalogue: { at: number; cards: Promise<TemplateCard[] | undefined> } | undefined;

  constructor(
    private readonly db: Database,
    private readonly bus?: InvalidationBus,
    private readonly now: () => number = Date.now,
    /** Templates held in memory at most (tests lower it to try the statement). */
    private readonly memoryMax = GALLERY_MEMORY_MAX,
  ) {
    // A user removed takes its templates along (foreign key): 'user' changes empty the pages too.
    bus?.subscribe((change) => {
      if (change.kind === 'templates' || change.kind === 'user' || change.kind === 'all') this.catalogue = undefined;
    });
  }

  /** After a write: this process's pages go at once, the other processes' when told. */
  private async changed(): Promise<void> {
    this.catalogue = undefined;
    await this.bus?.publish({ kind: 'templates' });
  }

  /** The cards in gallery order (one statement, shared by concurrent callers), or undefined past the limit. */
  private cards(): Promise<TemplateCard[] | undefined> {
    const now = this.now();
    if (this.catalogue && now - this.catalogue.at < GALLERY_CACHE_MS) return this.catalogue.cards;
    const cards = this.db
      .select(CARD)
      .from(templates)
      .orderBy(...GALLERY_ORDER)
      .limit(this.memoryMax + 1)
      .then((rows) => (rows.length > this.memoryMax ? undefined : rows));
    const entry = { at: now, cards };
    this.catalogue = entry;
    // A failed read is not kept.
    cards.catch(() => {
      if (this.catalogue === entry) this.catalogue = undefined;
    });
    return cards;
  }

  /**
   * The gallery: what `user` may see (`mayViewTemplate`, the row form of `templateScope`), by name
   * part (case-insensitive, taken literally) and industry; most installed first. From the cards in
   * memory; a statement when there are too many.
   */
  async list(
    user: UserRow | undefined,
    filter: { nameContains?: string | undefined; industry?: Industry | '' | undefined },
    page: { skip: number; limit: number },
  ): Promise<GalleryPage> {
    const cards = await this.cards();
    if (!cards) return this.readGallery(user, filter, page);
    const needle = filter.nameContains?.toLowerCase();
    const hits = cards.filter(
      (card) =>
        mayViewTemplate(user, card) &&
        (!needle || card.name.toLowerCase().includes(needle)) &&
        (!filter.industry || card.industry === filter.industry),
    );
    return { rows: hits.slice(page.skip, page.skip + page.limit), total: hits.length };
  }

  private async readGallery(
    user: UserRow | undefined,
    filter: { nameContains?: string | undefined; industry?: Industry | '' | undefined },
    page: { skip: number; limit: number },
  ): Promise<GalleryPage> {
    const where = and(
      templateScope(user),
      filter.nameContains ? sql`${templates.name} ilike ${`%${literalLike(filter.nameContains)}%`}` : undefined,
      filter.industry ? eq(templates.industry, filter.industry) : undefined,
    );
    // One statement: the matching rows' ids and sort keys only are counted and sorted (narrow), the
    // page's rows then read whole by id; the total beside each row (a count of its own only for a
    // page past the end).
    const hits = this.db
      .select({ id: templates.id, total: sql<number>`(count(*) over ())::int`.as('total') })
      .from(templates)
      .where(where)
      .orderBy(...GALLERY_ORDER)
      .limit(page.limit)
      .offset(page.skip)
      .as('hits');
    const page_ = await this.db
      .select({ row: CARD, total: hits.total })
      .from(hits)
      .innerJoin(templates, eq(templates.id, hits.id))
      .orderBy(...GALLERY_ORDER);
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
    await this.changed();
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
    await this.changed();
  }

  async update(id: string, changes: Partial<TemplateInsert>): Promise<TemplateRow | undefined> {
    const [row] = await this.db.update(templates).set(changes).where(eq(templates.id, id)).returning();
    await this.changed();
    return row;
  }

  async remove(id: string): Promise<TemplateRow | undefined> {
    const [row] = await this.db.delete(templates).where(eq(templates.id, id)).returning();
    await this.changed();
    return row;
  }

  async countInstall(id: string): Promise<void> {
    await this.db
      .update(templates)
      .set({ numInstalled: sql`${templates.numInstalled} + 1` })
      .where(eq(templates.id, id));
    await this.changed();
  }

  /** The names of the uploaded images template rows use (covers and description images). */
  async imageNames(): Promise<Set<string>> {
    const rows = await this.db.select({ cover: templates.cover, images: templates.images }).from(templates);
    const names = new Set<string>();
    for (const url of rows.flatMap((row) => [row.cover ?? '', ...row.images])) {
      if (url) names.add(url.slice(url.lastIndexOf('/') + 1));
    }
    return names;
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
      .where(failedInstallWhere(type));
    return rows.flatMap((row) => (row.projectId ? [{ taskId: row.taskId, projectId: row.projectId }] : []));
  }

  /**
   * True in the database when a failed install's project is there to remove (`removeUninstalled`
   * keeps a project whose restore committed: such tasks are not counted).
   */
  installsLeftOver(type: string): SQL {
    return sql`exists (select 1 from ${tasks} where ${failedInstallWhere(type)} and not exists (
      select 1 from ${projectBackups} where ${projectBackups.taskId} = ${tasks.id}))`;
  }
}

function failedInstallWhere(type: string): SQL | undefined {
  return and(
    eq(tasks.type, type),
    eq(tasks.status, TaskState.Failed),
    sql`exists (select 1 from ${projects} where ${projects.id} = ${tasks.params}->>'projectId')`,
  );
}
