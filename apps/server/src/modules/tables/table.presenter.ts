import { stableJson } from '@gantry/shared';
import type { FastifyReply } from 'fastify';
import type { ListTotal } from '../../lib/list-count.js';
import { countAnswer } from '../../lib/list-response.js';
import type { RecordRow, TableRow } from './table.repository.js';

/** A table as answered: its definitions, its state, its versions. */
export function presentTable(row: TableRow) {
  const { doc } = row;
  return {
    id: row.id,
    name: doc.name,
    title: doc.title ?? null,
    state: doc.published ? ('published' as const) : ('draft' as const),
    /** The draft differs from the published definition (an update publish is pending). */
    unpublishedChanges: doc.published === null || stableJson(doc.published) !== stableJson(doc.draft),
    draft: doc.draft,
    draftVersion: doc.draftVersion,
    published: doc.published,
    version: doc.version,
    publishedAt: doc.publishedAt ?? null,
    mapping: doc.mapping
      ? { source: doc.mapping.source, sourceVersion: doc.mapping.sourceVersion, syncedAt: doc.mapping.syncedAt }
      : null,
    createTime: row.createTime.toISOString(),
    updateTime: row.updateTime.toISOString(),
  };
}

/** A table in the list: no definitions. */
export function presentTableSummary(row: TableRow) {
  const { draft: _draft, published: _published, ...summary } = presentTable(row);
  return { ...summary, fields: row.doc.published?.fields.length ?? 0 };
}

/** A record as answered; `fields` (a projection) keeps those values. */
export function presentRecord(row: RecordRow, fields?: readonly string[]) {
  const keep = fields ? new Set(fields) : undefined;
  const data = keep ? Object.fromEntries(Object.entries(row.doc.data).filter(([key]) => keep.has(key))) : row.doc.data;
  return {
    id: row.id,
    data,
    createdBy: row.doc.createdBy ?? null,
    updatedBy: row.doc.updatedBy ?? null,
    createTime: row.createTime.toISOString(),
    updateTime: row.updateTime.toISOString(),
  };
}

/** Sends a records page (the console's and the back office's lists): the total and cursor as headers. */
export function sendRecordPage(
  reply: FastifyReply,
  page: {
    rows: RecordRow[];
    total: ListTotal | undefined;
    fields: readonly string[] | undefined;
    nextCursor: string | undefined;
  },
) {
  if (page.total) countAnswer(reply, page.total);
  if (page.nextCursor) reply.header('next-cursor', page.nextCursor);
  return page.rows.map((row) => presentRecord(row, page.fields));
}
