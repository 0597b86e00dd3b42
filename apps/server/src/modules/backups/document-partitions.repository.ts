import { TaskState } from '@gantry/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type CopyIn, type Database, queryRows } from '../../db/database.js';
import { DEFAULT_PARTITION, hasOwnPartition, md5Hex, ownPartitionName } from '../../db/document-partitions.js';
import { projectBackups, projectCollectionStats, tasks } from '../../db/schema.js';
import { ArchiveProblem } from '../../lib/archive/archive-problem.js';
import { isPlainObject } from '../../lib/list-query/bad-query.js';
import { rawLiteral } from '../../lib/sql-literal.js';
import { assertTablesWithinGrant, lockTables } from '../licence/table-gate.js';
import { statisticsName, tableIndexPrefix } from '../tables/record-index.js';
import type { BackupRow } from './backup.repository.js';
import { COPY_COLUMNS, COPY_OPTIONS, type CopyRun, refusedRow } from './copy-rows.js';
import { parsedLines } from './parsed-lines.js';

/** Rows a statement wrote, as both drivers report it (`rowCount`; 0 when none is said). */
export function rowsWritten(result: unknown): number {
  return isPlainObject(result) && typeof result.rowCount === 'number' ? result.rowCount : 0;
}

/** How long the swap waits for its locks before trying again (others queue behind a waiting lock). */
const SWAP_LOCK_TIMEOUT_MS = 3_000;
const SWAP_ATTEMPTS = 5;

const defaultCheckName = (projectId: string) => `${DEFAULT_PARTITION}_not_${md5Hex(projectId)}`;
const LOAD_PREFIX = 'project_documents_load_';
const loadName = (restoreId: string) => `${LOAD_PREFIX}${md5Hex(restoreId)}`;
/** The project's previous partition once a restore's swap has detached it: a load table by its name, so never left behind. */
const retiredName = (restoreId: string) => loadName(`${restoreId}/retired`);
/** The restores' load tables in the catalogue (a `from … where` clause). */
const LOAD_TABLES = sql`from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname = 'public' and c.relkind = 'r' and c.relname like ${`${LOAD_PREFIX.replaceAll('_', '\\_')}%`}`;

const id = (name: string) => sql.identifier(name);

const isCode = (error: unknown, code: string): boolean => {
  for (let current = error, depth = 0; depth < 4 && current instanceof Error; depth++) {
    if ('code' in current && current.code === code) return true;
    current = current.cause;
  }
  return false;
};

/** Documents and stored bytes per collection of a loaded table. */
export type LoadedCollections = Array<{ collection: string; documents: number; bytes: number }>;

/**
 * All SQL of whole-project restores by partition: a restore's documents go into a table of their own
 * (no index while loading), which gets the parent's key, indexes and foreign key, then replaces the
 * project's rows in one short transaction: the project's old partition is dropped (or, the first
 * time, its rows deleted from the default partition) and the new table attached in its place.
 */
export class DocumentPartitions {
  constructor(
    private readonly background: Database,
    /** Documents from which a whole-project restore loads a partition even for a project without one. */
    private readonly minDocuments: number,
    /**
     * PostgreSQL's COPY: runs are then loaded by `copy`, checked as they load. Absent on the embedded
     * engine, which also has no autovacuum: there `finishLoad` analyses the loaded table itself.
     */
    private readonly copyIn?: CopyIn,
  ) {}

  /** Whether runs load by COPY, each line checked on the way (`copy`): the data modules need no reading before. */
  get checksWhileLoading(): boolean {
    return this.copyIn !== undefined;
  }

  /** Whether a whole-project restore of `documents` documents goes by partition. */
  async wanted(projectId: string, documents: number): Promise<boolean> {
    return documents >= this.minDocuments || (await this.hasOwn(projectId));
  }

  private hasOwn(projectId: string): Promise<boolean> {
    return hasOwnPartition(this.background, projectId);
  }

  /** A new, empty load table for a restore; one left by an earlier attempt of the same id goes. */
  async createLoad(restoreId: string, projectId: string): Promise<void> {
    const table = id(loadName(restoreId));
    await this.background.execute(sql`drop table if exists ${table}`);
    // The CHECK is what lets ATTACH skip scanning the table for rows of other projects.
    await this.background.execute(
      sql`create table ${table} (like project_documents, check (project_id = ${rawLiteral(projectId)}))`,
    );
  }

  /**
   * Loads a run of an archive's documents (verified already; `parsedLines`). Answers how many were
   * loaded (an id twice fails the key in `finishLoad`).
   */
  async load(
    restoreId: string,
    projectId: string,
    collection: string,
    lines: string,
    retarget: { from: string; to: string },
  ): Promise<number> {
    const result = await this.background.execute(sql`
      insert into ${id(loadName(restoreId))} (project_id, collection, id, doc, create_time, update_time)
      select ${projectId}, ${collection}, id, doc, create_time, update_time from ${parsedLines(lines, retarget)}`);
    return rowsWritten(result);
  }

  /**
   * Loads a run (`copyRows`: each line checked as verification checks it): its rows by COPY (their
   * JSON parsed by PostgreSQL as it loads them), its lines in another form as `load` does. A line
   * PostgreSQL refuses is a `badDocument` at its number (for the other lines, the first of them).
   * Answers how many were loaded.
   */
  async copy(
    restoreId: string,
    projectId: string,
    run: CopyRun,
    retarget: { from: string; to: string },
  ): Promise<number> {
    const copyIn = this.copyIn;
    if (!copyIn) throw new Error('COPY is PostgreSQL only');
    const refused = (error: unknown, line: () => number): never => {
      // Class 22: data exceptions (JSON, text encoding, times).
      if (!isPlainObject(error) || typeof error.code !== 'string' || !error.code.startsWith('22')) throw error;
      throw new ArchiveProblem('badDocument', { module: run.module, line: line() });
    };
    let loaded = 0;
    if (run.count > 0) {
      // The load table's name is ours (a prefix and an md5): no quoting needed.
      loaded += await copyIn(`copy ${loadName(restoreId)} ${COPY_COLUMNS} from stdin ${COPY_OPTIONS}`, run.rows).catch(
        (error: unknown) => refused(error, () => run.lineOf(refusedRow(error))),
      );
    }
    if (run.others.length > 0) {
      loaded += await this.load(restoreId, projectId, run.module, run.others.join('\n'), retarget).catch(
        (error: unknown) => refused(error, () => run.otherLines[0] ?? 1),
      );
    }
    return loaded;
  }

  /**
   * Gives the loaded table the parent's key, indexes and foreign key (built once over all rows, as
   * pg_restore does), and answers its documents and bytes per collection. The indexes one after
   * another, as pg_restore builds them: each build already shares its sort with PostgreSQL's parallel
   * workers, and two at once measured slower (bench/NOTES.md#dump). Then the totals' count beside the
   * foreign key's check, one scan each on the background pool's two connections. On PostgreSQL no
   * ANALYZE: statistics come from autovacuum, as after a pg_restore (every row is new to it). An id
   * twice in a collection fails the key: `duplicate`, naming the collection.
   */
  async finishLoad(restoreId: string): Promise<LoadedCollections> {
    const name = loadName(restoreId);
    const table = id(name);
    const key = id(`${name}_pkey`);
    const run = (statement: SQL) => this.background.execute(statement);
    try {
      await run(sql`create unique index ${key} on ${table} (project_id, collection, id)`);
    } catch (error) {
      if (!isCode(error, '23505')) throw error;
      const [twice] = await this.rows<{ collection: string }>(
        sql`select collection from ${table} group by collection, id having count(*) > 1 limit 1`,
      );
      throw new ArchiveProblem('duplicate', { module: twice?.collection ?? '' });
    }
    await run(sql`create index ${id(`${name}_dr`)} on ${table} (create_time) where collection = 'data_record'`);
    await run(sql`create index ${id(`${name}_list`)} on ${table} (project_id, collection, create_time, id)`);
    await run(
      sql`create index ${id(`${name}_tr`)} on ${table} (project_id, (doc ->> 'table'), create_time, id) where collection = 'table_record'`,
    );
    await run(sql`alter table ${table} add primary key using index ${key}`);
    const [counted, checked] = await Promise.allSettled([
      this.rows<{ collection: string; documents: number; bytes: number }>(
        sql`select collection, count(*)::int as documents, sum(pg_column_size(doc))::float8 as bytes
            from ${table} group by collection`,
      ),
      // Validated here, outside the swap: attaching adopts an equal foreign key as it is.
      run(sql`alter table ${table} add foreign key (project_id) references projects (id) on delete cascade`),
    ]);
    if (counted.status === 'rejected') throw counted.reason;
    if (checked.status === 'rejected') throw checked.reason;
    if (!this.copyIn) await run(sql`analyze ${table}`);
    return counted.value;
  }

  /**
   * The swap, in one transaction with the restore's record: the project's own partition is dropped,
   * or (its first) its rows leave the default partition, which gets a CHECK without the project; the
   * loaded table is attached as the project's partition and its totals written. Dropping a partition
   * takes an exclusive lock on the whole table, so the swap waits at most SWAP_LOCK_TIMEOUT_MS for it
   * (every other statement on the documents queues behind a waiting lock) and tries again.
   */
  async swapIn(restoreId: string, projectId: string, loaded: LoadedCollections, record: BackupRow): Promise<void> {
    const own = id(ownPartitionName(projectId));
    const hadOwn = await this.hasOwn(projectId);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.background.transaction(async (tx) => {
          await tx.execute(sql`set local lock_timeout = ${sql.raw(String(SWAP_LOCK_TIMEOUT_MS))}`);
          // The table gate (licence/table-gate.ts): the project locked first, the result checked last.
          const tablesBefore = (await lockTables(tx, projectId)).count;
          if (hadOwn) {
            // Detached, not dropped: unlinking its files took ~0.3 s of the commit at 2,000,000
            // documents. `dropRetired` drops it once the swap is done; a stopped server's goes with
            // the stray load tables.
            await tx.execute(sql`alter table project_documents detach partition ${own}`);
            await tx.execute(sql`alter table ${own} rename to ${id(retiredName(restoreId))}`);
          } else {
            await this.dropRecordIndexesFromDefault(tx, projectId);
            // Straight from the partition: the parent's statement triggers would count every row.
            await tx.execute(sql`delete from project_documents_default where project_id = ${projectId}`);
            await tx.execute(
              sql`alter table project_documents_default add constraint ${id(defaultCheckName(projectId))}
                  check (project_id <> ${rawLiteral(projectId)})`,
            );
          }
          await tx.execute(sql`alter table ${id(loadName(restoreId))} rename to ${own}`);
          await tx.execute(
            sql`alter table project_documents attach partition ${own} for values in (${rawLiteral(projectId)})`,
          );
          await tx.delete(projectCollectionStats).where(sql`${projectCollectionStats.projectId} = ${projectId}`);
          if (loaded.length > 0) {
            await tx.insert(projectCollectionStats).values(
              loaded.map((row) => ({
                projectId,
                collection: row.collection,
                documents: row.documents,
                bytes: row.bytes,
              })),
            );
          }
          await assertTablesWithinGrant(tx, projectId, tablesBefore);
          await tx.insert(projectBackups).values(record);
        });
        return;
      } catch (error) {
        // 55P03: lock_not_available.
        if (!isCode(error, '55P03') || attempt >= SWAP_ATTEMPTS) throw error;
      }
    }
  }

  /**
   * The designer's record indexes (and their statistics) of the project's tables
   * (tables/record-index.ts), on the default partition while the project's rows were there: they
   * leave with the rows (the table designer makes them again on the new partition at its next list).
   */
  private async dropRecordIndexesFromDefault(tx: Database, projectId: string): Promise<void> {
    const tables = await queryRows<{ id: string }>(
      tx,
      sql`select id from project_documents_default where project_id = ${projectId} and collection = 'table'`,
    );
    if (tables.length === 0) return;
    const prefixes = tables.map((table) => tableIndexPrefix(projectId, table.id));
    const indexes = await queryRows<{ name: string }>(
      tx,
      sql`select c.relname as name from pg_index i join pg_class c on c.oid = i.indexrelid
          where i.indrelid = 'project_documents_default'::regclass
            and left(c.relname, ${prefixes[0]?.length ?? 0}) in (${sql.join(
              prefixes.map((prefix) => sql`${prefix}`),
              sql`, `,
            )})`,
    );
    for (const { name } of indexes) {
      await tx.execute(sql`drop index ${id(name)}`);
      await tx.execute(sql`drop statistics if exists ${id(statisticsName(name))}`);
    }
  }

  /** Drops the partition a restore's swap detached (none when the project had none). */
  async dropRetired(restoreId: string): Promise<void> {
    await this.background.execute(sql`drop table if exists ${id(retiredName(restoreId))}`);
  }

  async dropLoad(restoreId: string): Promise<void> {
    await this.background.execute(sql`drop table if exists ${id(loadName(restoreId))}`);
  }

  /** True in the database when a load table exists (a restore running, or one a stopped server left). */
  loadsExist(): SQL {
    return sql`exists (select 1 ${LOAD_TABLES})`;
  }

  /** Drops load tables of restores no longer running (a server stopped while one loaded). */
  async dropStrayLoads(): Promise<number> {
    const ongoing = await this.rows<{ id: string }>(
      sql`select ${tasks.id} as id from ${tasks} where ${tasks.status} = ${TaskState.Ongoing}`,
    );
    const keep = new Set(ongoing.map((row) => loadName(row.id)));
    const tables = await this.rows<{ name: string }>(sql`select c.relname as name ${LOAD_TABLES}`);
    let dropped = 0;
    for (const { name } of tables) {
      if (keep.has(name)) continue;
      await this.background.execute(sql`drop table if exists ${id(name)}`);
      dropped++;
    }
    return dropped;
  }

  private rows<T>(query: SQL): Promise<T[]> {
    return queryRows<T>(this.background, query);
  }
}
