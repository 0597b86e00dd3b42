import { type RequestOptions, requestWithHeaders } from './request';

/** `GET <resource>?query=<JSON>` (spec README, contract 4). */
export interface ListQuery {
  sort?: Record<string, 1 | -1>;
  skip?: number;
  limit?: number;
  project?: string[];
  filter?: Record<string, unknown>;
  withCount?: boolean;
}

export interface ListPage<T> {
  rows: T[];
  /** From the `count` header (the rows' length when the server sent none). */
  total: number;
}

/** `limit: 0` asks for the server's maximum page (lists shown whole, e.g. a tenant's projects). */
export const ALL_ROWS = 0;

/** One page of a list with its total. */
export async function fetchList<T>(
  resource: string,
  query: ListQuery,
  options: Pick<RequestOptions, 'signal' | 'noMessage' | 'headers'> = {},
): Promise<ListPage<T>> {
  const { data, headers } = await requestWithHeaders<T[]>(resource, {
    ...options,
    query: { query: JSON.stringify({ ...query, withCount: true }) },
  });
  const rows = Array.isArray(data) ? data : [];
  const count = Number(headers.get('count'));
  return { rows, total: headers.has('count') && Number.isFinite(count) ? count : rows.length };
}

/** A `like` filter value (a case-insensitive regular expression) matching `text` literally. */
export function likeText(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
