import type { DocumentRow } from './document.repository.js';

/** A document as the data layer answers it: its own keys, its id and its times. */
export type DocumentBody = Record<string, unknown> & { id: string };

/**
 * Row → answer. `fields` (a list query's projection) keeps those keys and the id, a dotted name
 * keeping its top-level key; undefined keeps everything.
 */
export function presentDocument(row: DocumentRow, fields?: readonly string[]): DocumentBody {
  const whole: DocumentBody = {
    ...row.doc,
    id: row.id,
    createTime: row.createTime.toISOString(),
    updateTime: row.updateTime.toISOString(),
  };
  if (!fields) return whole;
  const keep = new Set(fields.map((name) => name.split('.')[0]));
  const projected = Object.fromEntries(Object.entries(whole).filter(([key]) => keep.has(key)));
  return { ...projected, id: row.id };
}
