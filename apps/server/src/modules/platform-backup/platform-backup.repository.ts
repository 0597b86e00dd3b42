import { sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../db/database.js';
import { auditLog } from '../../db/schema.js';

/**
 * Tables a platform backup leaves out: what is of one running machine (sessions, sign-in counters,
 * captchas, tasks and their staging, project-site sessions) and what triggers derive from other
 * tables (the per-owner project counts, the per-collection totals), rebuilt as the rows go back in.
 * A restore empties them too.
 */
export const NOT_ARCHIVED = new Set([
  'sessions',
  'login_attempts',
  'pending_sign_ins',
  'captchas',
  'tasks',
  'restore_staging',
  'site_sessions',
  'site_sso_codes',
  'project_counts',
  'project_collection_stats',
]);

/** Rows fetched at a time from a table's cursor. */
const FETCH_ROWS = 1000;

/** All SQL of the platform backup and restore: generic over the schema's tables, so new tables come along. */
export class PlatformBackupRepository {
  /**
   * Every table of the schema (the `public` one), by name. A partitioned table counts once, by its own
   * name: its partitions (project_documents' per project, migration 0020) are read and written through it.
   * A restore's load table (a partition being built) is scratch, like the staging table.
   */
  async tables(db: Database): Promise<string[]> {
    const rows = await queryRows<{ name: string }>(
      db,
      sql`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
            AND c.relname NOT LIKE 'project\\_documents\\_load\\_%' ORDER BY c.relname`,
    );
    return rows.map((row) => row.name);
  }

  /** How many schema migrations this database has applied. */
  async schemaMigrations(db: Database): Promise<number> {
    const [row] = await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`);
    return row?.n ?? 0;
  }

  /** `tables` ordered so that every table comes after the tables its foreign keys point to. */
  async insertOrder(db: Database, tables: string[]): Promise<string[]> {
    const edges = await queryRows<{ child: string; parent: string }>(
      db,
      sql`SELECT c.relname AS child, p.relname AS parent
          FROM pg_constraint k
          JOIN pg_class c ON c.oid = k.conrelid
          JOIN pg_class p ON p.oid = k.confrelid
          JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE k.contype = 'f' AND n.nspname = 'public'`,
    );
    const wanted = new Set(tables);
    const parents = new Map<string, Set<string>>(tables.map((table) => [table, new Set()]));
    for (const { child, parent } of edges) {
      if (child !== parent && wanted.has(child) && wanted.has(parent)) parents.get(child)?.add(parent);
    }
    const ordered: string[] = [];
    const placed = new Set<string>();
    while (ordered.length < tables.length) {
      const ready = tables.filter(
        (table) => !placed.has(table) && [...(parents.get(table) ?? [])].every((p) => placed.has(p)),
      );
      if (ready.length === 0) throw new Error('the tables’ foreign keys form a cycle');
      for (const table of ready) {
        ordered.push(table);
        placed.add(table);
      }
    }
    return ordered;
  }

  /**
   * Every row of `table` as a JSON line, a thousand at a time, from a cursor of the transaction `tx`
   * (a snapshot: call it inside one REPEATABLE READ transaction for every table).
   */
  async *rowLines(tx: Database, table: string): AsyncGenerator<Buffer> {
    const cursor = sql.identifier(`platform_${table}`);
    await tx.execute(
      sql`DECLARE ${cursor} NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS line FROM ${sql.identifier(table)} t`,
    );
    try {
      for (;;) {
        const rows = await queryRows<{ line: string }>(tx, sql`FETCH ${sql.raw(String(FETCH_ROWS))} FROM ${cursor}`);
        if (rows.length === 0) return;
        yield Buffer.from(`${rows.map((row) => row.line).join('\n')}\n`, 'utf8');
      }
    } finally {
      await tx.execute(sql`CLOSE ${cursor}`);
    }
  }

  /**
   * Every row of `table` as JSON lines, a thousand at a time in primary-key order, each page its own
   * statement: the embedded engine's one session is never held for the whole table (other calls run
   * between pages). Rows written meanwhile may or may not be included; `insertRows` leaves out rows
   * whose parent did not make it into the archive.
   */
  async *rowLinesByKey(db: Database, table: string): AsyncGenerator<Buffer> {
    const keys = await queryRows<{ name: string; type: string }>(
      db,
      sql`SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
          FROM pg_index i
          JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
          WHERE i.indrelid = ${table}::regclass AND i.indisprimary
          ORDER BY array_position(i.indkey::int2[], a.attnum)`,
    );
    const name = sql.identifier(table);
    if (keys.length === 0) {
      const rows = await queryRows<{ line: string }>(db, sql`SELECT row_to_json(t)::text AS line FROM ${name} t`);
      if (rows.length > 0) yield Buffer.from(`${rows.map((row) => row.line).join('\n')}\n`, 'utf8');
      return;
    }
    const columns = sql.join(
      keys.map((key) => sql`t.${sql.identifier(key.name)}`),
      sql`, `,
    );
    const keyText = sql.join(
      keys.map((key, index) => sql`t.${sql.identifier(key.name)}::text AS ${sql.identifier(`k${index}`)}`),
      sql`, `,
    );
    let last: string[] | undefined;
    for (;;) {
      const after = last
        ? sql`WHERE (${columns}) > (${sql.join(
            keys.map((key, index) => sql`${last?.[index]}::${sql.raw(key.type)}`),
            sql`, `,
          )})`
        : sql``;
      const rows = await queryRows<Record<string, string>>(
        db,
        sql`SELECT row_to_json(t)::text AS line, ${keyText} FROM ${name} t ${after}
            ORDER BY ${columns} LIMIT ${sql.raw(String(FETCH_ROWS))}`,
      );
      if (rows.length === 0) return;
      yield Buffer.from(`${rows.map((row) => row.line).join('\n')}\n`, 'utf8');
      const tail = rows[rows.length - 1] as Record<string, string>;
      last = keys.map((_, index) => tail[`k${index}`] as string);
      if (rows.length < FETCH_ROWS) return;
    }
  }

  /** Single-column foreign keys of `table`: column → parent table and column. */
  async foreignKeys(
    db: Database,
    table: string,
  ): Promise<Array<{ column: string; parent: string; parentColumn: string }>> {
    return queryRows(
      db,
      sql`SELECT a.attname AS column, p.relname AS parent, pa.attname AS "parentColumn"
          FROM pg_constraint k
          JOIN pg_class p ON p.oid = k.confrelid
          JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
          JOIN pg_attribute pa ON pa.attrelid = k.confrelid AND pa.attnum = k.confkey[1]
          WHERE k.contype = 'f' AND k.conrelid = ${table}::regclass AND cardinality(k.conkey) = 1`,
    );
  }

  async count(tx: Database, table: string): Promise<number> {
    const [row] = await queryRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`);
    return row?.n ?? 0;
  }

  /** Empties every table at once (and restarts their sequences). */
  async truncateAll(tx: Database, tables: string[]): Promise<void> {
    if (tables.length === 0) return;
    await tx.execute(
      sql`TRUNCATE ${sql.join(
        tables.map((table) => sql.identifier(table)),
        sql`, `,
      )} RESTART IDENTITY CASCADE`,
    );
  }

  /**
   * Inserts rows given as one JSON array of objects (the database parses it once), leaving out rows
   * whose parent row (a single-column foreign key) is not there: a row written while a backup read
   * the tables page by page may name a project or user it did not read. Answers the rows inserted.
   */
  async insertRows(
    tx: Database,
    table: string,
    jsonArray: string,
    parents: Array<{ column: string; parent: string; parentColumn: string }>,
  ): Promise<number> {
    const name = sql.identifier(table);
    const checks = parents.map(
      ({ column, parent, parentColumn }) =>
        sql`(r.${sql.identifier(column)} IS NULL OR EXISTS (SELECT 1 FROM ${sql.identifier(parent)} p WHERE p.${sql.identifier(parentColumn)} = r.${sql.identifier(column)}))`,
    );
    const where = checks.length > 0 ? sql`WHERE ${sql.join(checks, sql` AND `)}` : sql``;
    const result = await tx.execute(
      sql`INSERT INTO ${name} SELECT r.* FROM json_populate_recordset(NULL::${name}, ${jsonArray}::json) r ${where}`,
    );
    return result.rowCount ?? 0;
  }

  /** Drops the own partitions (and their default-partition CHECKs) of projects the restore did not bring back. */
  async pruneDocumentPartitions(tx: Database): Promise<void> {
    await tx.execute(sql`SELECT project_documents_prune()`);
  }

  /** Moves every serial column's sequence past the largest value restored. */
  async resetSequences(tx: Database): Promise<void> {
    const serials = await queryRows<{ tableName: string; columnName: string; sequence: string }>(
      tx,
      sql`SELECT table_name AS "tableName", column_name AS "columnName",
                 pg_get_serial_sequence(quote_ident(table_name), column_name) AS sequence
          FROM information_schema.columns
          WHERE table_schema = 'public' AND column_default LIKE 'nextval(%'`,
    );
    for (const { tableName, columnName, sequence } of serials) {
      await tx.execute(
        sql`SELECT setval(${sequence}, COALESCE((SELECT max(${sql.identifier(columnName)}) FROM ${sql.identifier(tableName)}), 0) + 1, false)`,
      );
    }
  }

  /** The restore's audit entry, written in its transaction: what marks the restore `detail.restoreId` committed. */
  async markRestoreCommitted(
    tx: Database,
    actor: { id: string; name: string },
    detail: { restoreId: string } & Record<string, unknown>,
  ): Promise<void> {
    await tx
      .insert(auditLog)
      .values({ actorId: actor.id, actorName: actor.name, action: 'platform.restore', objectType: 'platform', detail });
  }

  /** Whether the restore `restoreId` committed (its audit entry is written in its transaction). */
  async restoreCommitted(db: Database, restoreId: string): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      db,
      sql`SELECT id FROM audit_log WHERE action = 'platform.restore' AND detail->>'restoreId' = ${restoreId} LIMIT 1`,
    );
    return rows.length > 0;
  }
}
