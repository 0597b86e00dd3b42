import { createHash } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.js';
import { SPM_URL } from '../../test/fixtures.js';
import { DocumentPartitions } from '../backups/document-partitions.repository.js';
import { recordIndexName, statisticsName, tableIndexPrefix } from '../tables/record-index.js';
import {
  CORE,
  call,
  change,
  closeWorlds,
  DB,
  database,
  dump,
  openWorld,
  project,
  restore,
  seed,
  type World,
  worlds,
} from './db-backup.fixtures.js';

// Every whole-project restore here is "large": it goes by partition (migration 0020).
let world: World;
beforeEach(async () => {
  world = await openWorld({}, { GANTRY_OWN_PARTITION_MIN_DOCUMENTS: '1' });
  worlds.current = world;
});
afterEach(() => closeWorlds());

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const rows = <T>(query: SQL) => queryRows<T>(world.app.database.db, query);
const partitions = async () =>
  (
    await rows<{ name: string }>(sql`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'project_documents'::regclass order by 1`)
  ).map((row) => row.name);
const defaultChecks = async () =>
  (
    await rows<{ name: string }>(sql`select conname as name from pg_constraint
      where conrelid = 'project_documents_default'::regclass and contype = 'c' order by 1`)
  ).map((row) => row.name);
const loadTables = async () =>
  rows<{ name: string }>(
    sql`select relname as name from pg_class where relkind = 'r' and relname like 'project\\_documents\\_load\\_%'`,
  );
const countIn = async (table: string, projectId: string) => {
  const [row] = await rows<{ n: number }>(
    sql`select count(*)::int as n from ${sql.identifier(table)} where project_id = ${projectId}`,
  );
  return row?.n;
};
const statsCount = async (projectId: string) => {
  const [row] = await rows<{ n: number }>(
    sql`select coalesce(sum(documents), 0)::int as n from project_collection_stats where project_id = ${projectId}`,
  );
  return row?.n;
};

describe('whole-project restores by partition', () => {
  it('moves the project into a partition of its own, swaps it on the next restore, and drops it with the project', async () => {
    await seed();
    await seed(world, 'plant2');
    const before = await database();
    const neighbour = await database(world, 'plant2');
    const id = await dump('nightly');
    const own = `project_documents_p_${md5(project)}`;
    expect(await partitions()).toEqual(['project_documents_default']);

    // The first restore: the project's rows leave the default partition for a new one.
    await change();
    expect(await restore(id, { fileServer: true, html: true, database: true })).toMatchObject({
      status: 'success',
      log: expect.stringContaining('loaded into a new partition'),
    });
    expect(await database()).toEqual(before);
    expect(await partitions()).toEqual([own, 'project_documents_default'].sort());
    expect(await countIn(own, project)).toBe(before.length);
    expect(await countIn('project_documents_default', project)).toBe(0);
    expect(await defaultChecks()).toEqual([`project_documents_default_not_${md5(project)}`]);
    expect(await statsCount(project)).toBe(before.length);
    expect(await database(world, 'plant2')).toEqual(neighbour);

    // The data calls write into the new partition, and the totals follow.
    expect((await call('PUT', `${CORE}/rule/r9`, { body: { id: 'r9', name: 'after' } })).statusCode).toBe(200);
    expect(await countIn(own, project)).toBe(before.length + 1);
    expect(await statsCount(project)).toBe(before.length + 1);

    // The second: the partition is replaced whole; nothing of the first is left behind.
    await change();
    expect(await restore(id, { fileServer: true, html: true, database: true })).toMatchObject({ status: 'success' });
    expect(await database()).toEqual(before);
    expect(await partitions()).toEqual([own, 'project_documents_default'].sort());
    expect(await statsCount(project)).toBe(before.length);
    expect(await loadTables()).toEqual([]);
    expect(await database(world, 'plant2')).toEqual(neighbour);
    const [projectStats] = (await call('GET', `${DB}/stats`)).json<Array<{ name: string; count: number }>>();
    expect(projectStats).toBeDefined();

    // The project's deletion takes its partition and its CHECK with it.
    expect((await world.app.call('DELETE', `${SPM_URL}/project/${project}`, world.acme)).statusCode).toBe(200);
    expect(await partitions()).toEqual(['project_documents_default']);
    expect(await defaultChecks()).toEqual([]);
    expect(await database(world, 'plant2')).toEqual(neighbour);
  });

  it('the designer’s record indexes follow the project’s rows into its partition', async () => {
    const table = (await call('POST', `${SPM_URL}/tables`, { body: { name: 'wells' } })).json<{ id: string }>().id;
    const fields = [{ name: 'depth', title: 'depth', type: 'number', sortable: true }];
    expect((await call('PUT', `${SPM_URL}/tables/${table}/draft`, { body: { fields } })).statusCode).toBe(200);
    expect((await call('POST', `${SPM_URL}/tables/${table}/publish`, { body: {} })).statusCode).toBe(200);
    for (let depth = 0; depth < 3; depth++) {
      const made = await call('POST', `${SPM_URL}/tables/${table}/records`, { body: { depth } });
      expect(made.statusCode, made.body).toBe(200);
    }
    const prefix = tableIndexPrefix(project, table);
    const indexedTables = async () =>
      (
        await rows<{ name: string }>(
          sql`select tablename as name from pg_indexes where left(indexname, ${prefix.length}) = ${prefix}`,
        )
      ).map((row) => row.name);
    expect(await indexedTables()).toEqual(['project_documents_default']);
    const id = await dump('with a table');
    expect(await restore(id, { fileServer: true, html: true, database: true })).toMatchObject({ status: 'success' });
    // Gone from the default partition with the rows; a list after the designer's next check (at most
    // a minute after the last) makes it on the project's own.
    expect(await indexedTables()).toEqual([]);
    world.app.advance(61_000);
    const list = await call('GET', `${SPM_URL}/tables/${table}/records`);
    expect(list.statusCode, list.body).toBe(200);
    const own = `project_documents_p_${md5(project)}`;
    expect(await indexedTables()).toEqual([own]);
    // Their statistics too: a query of the project is planned on its partition, with its statistics.
    const statistics = await rows<{ name: string; on: string }>(
      sql`select stxname as name, stxrelid::regclass::text as on from pg_statistic_ext
          where stxname like 'trs\\_%' or stxname like '%\\_tstats' order by 1`,
    );
    expect(statistics).toEqual([
      // The default partition's stays: other projects' tables are there.
      { name: 'project_documents_default_tstats', on: 'project_documents_default' },
      { name: `${own}_tstats`, on: own },
      { name: statisticsName(recordIndexName(project, table, 'depth')), on: own },
    ]);
  });

  it('a restore that fails before its swap leaves the project as it was and no load table', async () => {
    await seed();
    const id = await dump('nightly');
    await change();
    const changed = await database();
    // The swap meets a constraint of the name it adds to the default partition: the restore fails
    // in its last transaction, after the project's rows left the default partition in it.
    await world.app.database.db.execute(
      sql`alter table project_documents_default add constraint ${sql.identifier(`project_documents_default_not_${md5(project)}`)} check (true)`,
    );
    expect(await restore(id, { database: true })).toMatchObject({ status: 'failed' });
    expect(await database()).toEqual(changed);
    expect(await loadTables()).toEqual([]);
    expect(await partitions()).toEqual(['project_documents_default']);
  });

  it('drops the load tables of restores no longer running, and keeps a running one’s', async () => {
    const repo = new DocumentPartitions(world.app.database.background, 1);
    await repo.createLoad('stray-restore', project);
    await world.app.database.db.execute(
      sql`insert into tasks (id, type, status, requester, request_id, start_time, updated_at)
          values ('running-restore', 'partitionTest', 'ongoing', 'test', 'test', now(), now())`,
    );
    await repo.createLoad('running-restore', project);
    expect(await loadTables()).toHaveLength(2);
    expect(await repo.dropStrayLoads()).toBe(1);
    expect(await loadTables()).toEqual([{ name: `project_documents_load_${md5('running-restore')}` }]);
  });
});
