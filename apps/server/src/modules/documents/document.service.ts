import { randomBytes } from 'node:crypto';
import { type Collection, DOCUMENT_ID_PATTERN, DOCUMENT_LIMITS, isCollection } from '@gantry/shared';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import type { ListTotal } from '../../lib/list-count.js';
import { mapQueryError, parseCountFilter, parseListQuery } from '../../lib/list-query/list-query.js';
import type { GatedProject } from '../../plugins/project-gate.js';
import { type DocumentBody, presentDocument } from './document.presenter.js';
import {
  type CollectionStats,
  DOCUMENT_RESOURCE,
  type DocumentRepository,
  type DocumentRow,
} from './document.repository.js';

/** Keys the server owns: the id is taken from them on save, the times are set by the server. */
const SERVER_KEYS = new Set(['createTime', 'updateTime']);

/** Where a call works: one collection of one project (the project checked for the caller by the project gate). */
export interface Target {
  projectId: string;
  collection: Collection;
}

/**
 * The generic data layer (backups-data-designer.md §7) over one project's collections. Who may reach
 * the project, and whether it may change (not disabled, nor under a disabled tenant), the project gate
 * decided before the call gets here (`plugins/project-gate.ts`).
 */
export class DocumentService {
  constructor(
    private readonly repo: DocumentRepository,
    private readonly clock: Clock,
  ) {}

  /** Checks the collection; the project is the one the gate resolved for the caller. */
  target(project: GatedProject, collection: string): Target {
    if (!isCollection(collection)) throw new AppError('modelNotFound', { params: { name: collection } });
    return { projectId: project.id, collection };
  }

  async list(target: Target, rawQuery: string | undefined) {
    const query = parseListQuery(rawQuery, DOCUMENT_RESOURCE);
    try {
      const [rows, total] = await Promise.all([
        this.repo.list(target.projectId, target.collection, query),
        query.withCount ? this.repo.total(target.projectId, target.collection, query.where) : undefined,
      ]);
      return { items: rows.map((row) => presentDocument(row, query.fields)), total };
    } catch (error) {
      throw mapQueryError(error);
    }
  }

  async count(target: Target, rawQuery: string | undefined): Promise<ListTotal> {
    const { where } = parseCountFilter(rawQuery, DOCUMENT_RESOURCE);
    try {
      return await this.repo.total(target.projectId, target.collection, where);
    } catch (error) {
      throw mapQueryError(error);
    }
  }

  async get(target: Target, id: string): Promise<DocumentBody> {
    const row = await this.repo.get(target.projectId, target.collection, id);
    if (!row) throw new AppError('notFound');
    return presentDocument(row);
  }

  /** POST: a new document; its id is the body's `id` or `_id`, or a new one. */
  async create(target: Target, body: unknown): Promise<DocumentBody> {
    const doc = checkedDocument(body);
    await this.assertNotDesigner(target, undefined, doc, true);
    const id = idOf(doc) ?? randomBytes(12).toString('hex');
    const row = this.row(target, id, doc);
    const saved = await this.repo.insert(row);
    if (!saved) throw new AppError('documentIdTaken', { params: { id } });
    return presentDocument(saved);
  }

  /** PUT /{id}: the whole document, created when there was none. */
  async replace(target: Target, id: string, body: unknown): Promise<DocumentBody> {
    const doc = checkedDocument(body);
    assertSameId(doc, id);
    await this.assertNotDesigner(target, id, doc, true);
    return presentDocument(await this.repo.put(this.row(target, id, doc)));
  }

  /** PATCH /{id}: the given top-level keys replace the document's. */
  async merge(target: Target, id: string, body: unknown): Promise<DocumentBody> {
    const patch = checkedDocument(body);
    assertSameId(patch, id);
    await this.assertNotDesigner(target, id, patch);
    const saved = await this.repo.merge(target.projectId, target.collection, id, patch, this.clock());
    if (!saved) throw new AppError('notFound');
    return presentDocument(saved);
  }

  async delete(target: Target, id: string): Promise<void> {
    await this.assertNotDesigner(target, id, undefined);
    if (!(await this.repo.delete(target.projectId, target.collection, id))) throw new AppError('notFound');
  }

  /** The project's collections that hold documents (for `project/_collectionNames` and its size). */
  stats(project: GatedProject): Promise<CollectionStats[]> {
    return this.repo.stats(project.id);
  }

  /**
   * The table designer's tables and records change only through its calls (modules/tables), which
   * check every record write against the table's definition; the data layer still reads them, and
   * other documents of these collections stay plain documents.
   */
  private async assertNotDesigner(
    target: Target,
    id: string | undefined,
    doc: Record<string, unknown> | undefined,
    mayCreate = false,
  ) {
    if (target.collection !== 'table' && target.collection !== 'table_record') return;
    if (designerOwned(target.collection, doc)) throw new AppError('tableUseDesigner');
    // The designer lists (and the licence counts) every document of `table`: a new one is made
    // only by the designer's call, which holds the grant's table limit (issue 32).
    if (target.collection === 'table' && mayCreate && id === undefined) throw new AppError('tableUseDesigner');
    if (id === undefined) return;
    const existing = await this.repo.get(target.projectId, target.collection, id);
    if (designerOwned(target.collection, existing?.doc)) throw new AppError('tableUseDesigner');
    if (target.collection === 'table' && mayCreate && !existing) throw new AppError('tableUseDesigner');
  }

  private row(target: Target, id: string, doc: Record<string, unknown>): DocumentRow {
    const now = this.clock();
    return { projectId: target.projectId, collection: target.collection, id, doc, createTime: now, updateTime: now };
  }
}

/** A table of the designer (it has a draft or a published definition), or one of its records (it names its table). */
function designerOwned(collection: 'table' | 'table_record', doc: Record<string, unknown> | undefined): boolean {
  if (!doc) return false;
  return collection === 'table' ? 'draft' in doc || 'published' in doc : typeof doc.table === 'string';
}

function invalid(reason: string): AppError {
  return new AppError('documentInvalid', { params: { reason } });
}

/**
 * A JSON object within the limits, without the server's keys. The body hooks have refused U+0000
 * already, and the body limit its size; this checks the shape, the depth and the keys.
 */
export function checkedDocument(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('the body must be a JSON object');
  const bytes = Buffer.byteLength(JSON.stringify(body));
  if (bytes > DOCUMENT_LIMITS.bytes) throw new AppError('documentTooLarge', { params: { max: DOCUMENT_LIMITS.bytes } });
  checkShape(body, 1);
  return Object.fromEntries(Object.entries(body).filter(([key]) => !SERVER_KEYS.has(key)));
}

function checkShape(value: unknown, depth: number): void {
  if (typeof value !== 'object' || value === null) return;
  if (depth > DOCUMENT_LIMITS.depth) throw invalid(`nested deeper than ${DOCUMENT_LIMITS.depth} levels`);
  if (Array.isArray(value)) {
    for (const item of value) checkShape(item, depth + 1);
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    // `$` starts an operator in the query language: such a key could never be queried.
    if (key.startsWith('$')) throw invalid(`key '${key.slice(0, 40)}' starts with '$'`);
    checkShape(item, depth + 1);
  }
}

/** The id a body names (`id`, else `_id`), checked; undefined when it names none. */
function idOf(doc: Record<string, unknown>): string | undefined {
  const raw = doc.id ?? doc._id;
  if (raw === undefined || raw === null || raw === '') return undefined;
  const id = typeof raw === 'number' && Number.isSafeInteger(raw) ? String(raw) : raw;
  if (typeof id !== 'string' || id.length > DOCUMENT_LIMITS.idMax || !DOCUMENT_ID_PATTERN.test(id)) {
    throw invalid(`the id must be 1 to ${DOCUMENT_LIMITS.idMax} letters, digits or _ - . : @`);
  }
  return id;
}

/** A body that names an id must name the one in the path. */
function assertSameId(doc: Record<string, unknown>, id: string): void {
  const named = idOf(doc);
  if (named !== undefined && named !== id) throw invalid(`the body's id '${named}' is not the path's '${id}'`);
}
