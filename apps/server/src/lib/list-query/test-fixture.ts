/**
 * For the list-query tests only: a table with a column of each type, its resource, and a database
 * holding it. The database is an in-memory PGlite, or PostgreSQL when GANTRY_TEST_DATABASE_URL is
 * set (the API suite's second run); the table is temporary, on one connection, so parallel test
 * files do not see each other's rows.
 */
import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, type PgDatabase, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { PGLITE_EXTENSIONS } from '../../db/pglite-options.js';
import type { RowsResultHKT } from '../../db/rows-result.js';
import { AppError } from '../app-error.js';
import type { Row } from './reference.js';
import type { FieldType, ResourceDef } from './types.js';

export const items = pgTable('list_query_items', {
  id: integer('id').primaryKey(),
  s: text('s'),
  n: integer('n'),
  b: boolean('b'),
  d: timestamp('d', { withTimezone: true }),
  j: jsonb('j'),
  v: jsonb('v'),
});

export type Item = typeof items.$inferInsert;
export type ItemField = 'id' | 's' | 's.length' | 'n' | 'b' | 'd' | 'j' | 'v';

/**
 * Text is compared in the "C" collation (byte order, ASCII-only case folding), which the reference
 * evaluator reproduces whatever the database's default collation is.
 */
export const itemResource: ResourceDef<ItemField> = {
  name: 'items',
  fields: {
    id: { sql: items.id, type: 'number', sort: true },
    s: { sql: sql`(${items.s} collate "C")`, type: 'string', sort: true },
    's.length': { sql: sql`char_length(${items.s})`, type: 'number', sort: true },
    n: { sql: items.n, type: 'number', sort: true },
    b: { sql: items.b, type: 'boolean', sort: true },
    d: { sql: items.d, type: 'date', sort: true },
    j: { sql: items.j, type: 'json' },
    // A value inside a document, as the data layer reads one (JSON null is SQL NULL).
    v: { sql: sql`nullif(${items.v}, 'null'::jsonb)`, type: 'document', sort: true },
  },
  id: 'id',
  defaultSort: { n: -1 },
  defaultLimit: 10,
  maxLimit: 50,
};

const { fields } = itemResource;
export const itemTypes: Record<ItemField, FieldType> = {
  id: fields.id.type,
  s: fields.s.type,
  's.length': fields['s.length'].type,
  n: fields.n.type,
  b: fields.b.type,
  d: fields.d.type,
  j: fields.j.type,
  v: fields.v.type,
};

/** An item as the reference evaluator sees it: keyed by field name. */
export function referenceRow(item: Item): Row {
  return {
    id: item.id,
    s: item.s ?? null,
    's.length': item.s == null ? null : Array.from(item.s).length,
    n: item.n ?? null,
    b: item.b ?? null,
    d: item.d ?? null,
    j: item.j ?? null,
    v: item.v ?? null,
  };
}

export type TestDatabase = PgDatabase<RowsResultHKT>;

export interface TestDatabaseHandle {
  db: TestDatabase;
  engine: 'pglite' | 'postgres';
  /** Replaces the rows of the table. */
  load(rows: Item[]): Promise<void>;
  close(): Promise<void>;
}

const CREATE_TABLE = sql`create temporary table list_query_items (
  id integer primary key, s text, n integer, b boolean, d timestamptz, j jsonb, v jsonb)`;

export async function openTestDatabase(): Promise<TestDatabaseHandle> {
  const url = process.env.GANTRY_TEST_DATABASE_URL;
  let db: TestDatabase;
  let close: () => Promise<void>;
  if (url) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    db = drizzle({ client });
    close = () => client.end();
  } else {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const client = new PGlite({ extensions: PGLITE_EXTENSIONS });
    db = drizzle({ client });
    close = () => client.close();
  }
  await db.execute(CREATE_TABLE);
  return {
    db,
    engine: url ? 'postgres' : 'pglite',
    async load(rows) {
      await db.delete(items);
      if (rows.length > 0) await db.insert(items).values(rows);
    },
    close,
  };
}

/**
 * The test file's database: opened (holding `rows`) before its tests and closed after them. The
 * handle reaches the open database, so a test file keeps one at its top level.
 */
export function fileTestDatabase(rows: Item[] = []): TestDatabaseHandle {
  let open: TestDatabaseHandle | undefined;
  beforeAll(async () => {
    open = await openTestDatabase();
    if (rows.length > 0) await open.load(rows);
  });
  afterAll(async () => {
    await open?.close();
  });
  const current = () => {
    if (!open) throw new Error('the test database opens before the tests');
    return open;
  };
  return {
    get db() {
      return current().db;
    },
    get engine() {
      return current().engine;
    },
    load: (more) => current().load(more),
    close: () => current().close(),
  };
}

/** The reason of the badQuery error the call throws (fails the test on any other outcome). */
export function reasonOf(call: () => unknown): string {
  try {
    call();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    expect(error.code).toBe('badQuery');
    return String(error.options.params?.reason);
  }
  throw new Error('expected a badQuery error');
}
