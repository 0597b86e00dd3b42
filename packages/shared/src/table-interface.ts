/**
 * A designer table's records API, as its owner's "table interface" shows it (backups-data-designer.md
 * §4a, issue 32). The server registers exactly these calls (`modules/tables/table.routes.ts` takes the
 * paths from here; `table-interface.routes.test.ts` holds its route table to this list) and its list
 * query parses exactly these operators (`lib/list-query/filter.ts`), so what the console shows
 * cannot drift from what the server answers.
 */

/** Where the records API lives, under the console's origin. */
export const TABLE_API_BASE = '/portal/rest/spm';
/** The header naming the project of every call. */
export const PROJECT_HEADER = 'x-request-project';

export const TABLE_RECORD_CALLS = [
  { key: 'list', method: 'GET', path: '/tables/:id/records', write: false },
  { key: 'count', method: 'GET', path: '/tables/:id/records/count', write: false },
  { key: 'create', method: 'POST', path: '/tables/:id/records', write: true },
  { key: 'batch', method: 'PATCH', path: '/tables/:id/records', write: true },
  { key: 'get', method: 'GET', path: '/tables/:id/records/:recordId', write: false },
  { key: 'replace', method: 'PUT', path: '/tables/:id/records/:recordId', write: true },
  { key: 'update', method: 'PATCH', path: '/tables/:id/records/:recordId', write: true },
  { key: 'delete', method: 'DELETE', path: '/tables/:id/records/:recordId', write: true },
] as const;
export type TableRecordCall = (typeof TABLE_RECORD_CALLS)[number];
export type TableRecordCallKey = TableRecordCall['key'];

/** The path of a call by its key (the server's route registrations). */
export function recordCallPath(key: TableRecordCallKey): string {
  const call = TABLE_RECORD_CALLS.find((item) => item.key === key);
  if (!call) throw new Error(`no records call ${key}`);
  return call.path;
}

/** Operators on one field of a list query's filter: `{"f": {"gt": 1}}` (a leading `$` allowed). */
export const LIST_FIELD_OPERATORS = ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'like', 'not'] as const;
export type ListFieldOperator = (typeof LIST_FIELD_OPERATORS)[number];
/** Operators that combine filters: `{"or": [{…}, {…}]}`, `{"not": {…}}`. */
export const LIST_LOGICAL_OPERATORS = ['and', 'or', 'nor', 'not'] as const;
export type ListLogicalOperator = (typeof LIST_LOGICAL_OPERATORS)[number];
/** The keys of every list query (`?query=`; `fields` is another name of `project`). */
export const LIST_QUERY_KEYS = ['filter', 'sort', 'skip', 'limit', 'project', 'withCount'] as const;
/** A records list's keys: those, and the keyset paging's `cursor` (the `next-cursor` header of a full page). */
export const RECORD_QUERY_KEYS = [...LIST_QUERY_KEYS, 'cursor'] as const;
export type RecordQueryKey = (typeof RECORD_QUERY_KEYS)[number];
