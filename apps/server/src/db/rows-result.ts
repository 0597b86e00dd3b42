import type { PgQueryResultHKT } from 'drizzle-orm/pg-core';

/**
 * What both drivers (node-postgres, PGlite) answer to a raw statement: its rows, typed as the
 * caller's `execute<Row>` says, and (node-postgres) how many rows it changed.
 */
export interface RowsResultHKT extends PgQueryResultHKT {
  type: RowsResult<this['row']>;
}

interface RowsResult<Row> {
  rows: Row[];
  rowCount?: number | null;
}
