import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BACKUP_ARCHIVE } from '@gantry/shared';
import { TextWriter, Uint8ArrayReader, Uint8ArrayWriter, ZipReader, ZipWriter } from '@zip.js/zip.js';
import { type SQL, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.js';
import { configureZip } from '../../lib/archive/zip-codec.js';
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
  put,
  restore,
  seed,
  type World,
  worlds,
} from './db-backup.fixtures.js';

// Every whole-project restore here is "large": it goes by partition (migration 0020).
let world: World;
beforeEach(async () => {
  configureZip();
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

interface ManifestEntry {
  path: string;
  size: number;
  sha256: string;
}

/**
 * Rewrites a dump's archive with `lines` as a data module's file, listed in its manifest with their
 * size, hash and count (as a dump would list them); `spoil` then changes one thing of that listing.
 */
async function rewriteModule(
  id: string,
  module: string,
  lines: string,
  spoil: { staleHash?: boolean; documents?: number } = {},
): Promise<void> {
  const file = path.join(world.app.dataDir, 'backups', project, 'dumps', `${id}.zip`);
  const reader = new ZipReader(new Uint8ArrayReader(await readFile(file)));
  const writer = new ZipWriter(new Uint8ArrayWriter(), { level: 1 });
  const name = `${BACKUP_ARCHIVE.modulesDir}/${module}.jsonl`;
  const data = new TextEncoder().encode(lines);
  let manifest: { entries: ManifestEntry[]; modules: Record<string, { documents: number }> } | undefined;
  for (const entry of await reader.getEntries()) {
    if (entry.directory) {
      await writer.add(entry.filename, undefined, { directory: true });
    } else if (entry.filename === BACKUP_ARCHIVE.manifest) {
      manifest = JSON.parse(await entry.getData(new TextWriter()));
    } else if (entry.filename !== name) {
      await writer.add(entry.filename, new Uint8ArrayReader(await entry.getData(new Uint8ArrayWriter())));
    }
  }
  await reader.close();
  if (!manifest) throw new Error('no manifest');
  await writer.add(name, new Uint8ArrayReader(data));
  const listed = lines.split('\n').filter((line) => line !== '').length;
  const sha256 = createHash('sha256')
    .update(spoil.staleHash ? `${lines} ` : lines)
    .digest('hex');
  manifest.entries = [
    ...manifest.entries.filter((entry) => entry.path !== name),
    { path: name, size: data.length, sha256 },
  ];
  manifest.modules[module] = { documents: spoil.documents ?? listed };
  await writer.add(BACKUP_ARCHIVE.manifest, new Uint8ArrayReader(new TextEncoder().encode(JSON.stringify(manifest))));
  await writeFile(file, await writer.close());
}

/** `count` rule documents as a dump writes them (about 150 bytes each, hardly compressible); `bad` replaces one line. */
function ruleLines(count: number, bad?: { line: number; text: string }): string {
  const lines: string[] = [];
  for (let n = 1; n <= count; n++) {
    lines.push(
      n === bad?.line
        ? bad.text
        : JSON.stringify({
            id: `r${n}`,
            createTime: '2026-01-01T00:00:00.000Z',
            updateTime: '2026-01-02T00:00:00.000Z',
            doc: { name: `rule ${n}`, pad: randomBytes(30).toString('hex') },
          }),
    );
  }
  return `${lines.join('\n')}\n`;
}

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
    // The previous partition, detached by the swap, is dropped just after it.
    await expect.poll(loadTables).toEqual([]);
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
    // Not left for the next test given this database.
    await world.app.database.db.execute(
      sql`alter table project_documents_default drop constraint ${sql.identifier(`project_documents_default_not_${md5(project)}`)}`,
    );
  });

  // On PostgreSQL the data modules are checked as they load (COPY); on PGlite before. Either way the
  // same refusal, at the same line, and nothing changed. 40,000 lines are two runs of ~4 MiB: the
  // bad ones are in the second, loaded while the first may still be in flight.
  it('refuses a module file found bad while it loads, at its line, and changes nothing', async () => {
    await seed();
    const id = await dump('nightly');
    await change();
    const changed = await database();
    const refused = async (problem: string) => {
      expect(await restore(id, { database: true })).toMatchObject({
        status: 'failed',
        log: expect.stringContaining(`The backup file is not valid: ${problem}`),
      });
      expect(await database()).toEqual(changed);
      expect(await loadTables()).toEqual([]);
    };
    const deep = `{"id":"deep","createTime":"2026-01-01T00:00:00.000Z","updateTime":"2026-01-01T00:00:00.000Z","doc":{"a":${'['.repeat(32)}${']'.repeat(32)}}}`;
    await rewriteModule(id, 'rule', ruleLines(40_000, { line: 35_001, text: deep }));
    await refused('line 35001 of data module rule is not a valid document');
    // JSON only the database reads on PostgreSQL (the dump's form, its document not parsed here).
    const invalid = `{"id":"bad","createTime":"2026-01-01T00:00:00.000Z","updateTime":"2026-01-01T00:00:00.000Z","doc":{"a": tru}}`;
    await rewriteModule(id, 'rule', ruleLines(40_000, { line: 36_002, text: invalid }));
    await refused('line 36002 of data module rule is not a valid document');
    const nul = `{"id":"nul","createTime":"2026-01-01T00:00:00.000Z","updateTime":"2026-01-01T00:00:00.000Z","doc":{"a":"\\u0000"}}`;
    await rewriteModule(id, 'rule', ruleLines(40_000, { line: 39_999, text: nul }));
    await refused('line 39999 of data module rule is not a valid document');
    // A line longer than any document may be (2 MiB), refused before it is read whole.
    const long = `{"id":"long","createTime":"2026-01-01T00:00:00.000Z","updateTime":"2026-01-01T00:00:00.000Z","doc":{"a":"${randomBytes(1_600_000).toString('hex')}"}}`;
    await rewriteModule(id, 'rule', ruleLines(40_000, { line: 30_000, text: long }));
    await refused('line 30000 of data module rule is not a valid document');
    await rewriteModule(id, 'rule', ruleLines(40_000), { staleHash: true });
    await refused('an entry fails its SHA-256 check: mongodb/rule.jsonl');
    await rewriteModule(id, 'rule', ruleLines(40_000), { documents: 40_001 });
    await refused('line 40001 of data module rule is not a valid document');

    // Whole: every line of both runs in, the counts right.
    await rewriteModule(id, 'rule', ruleLines(40_000));
    const whole = await restore(id, { database: true });
    expect(whole.status, whole.log).toBe('success');
    const [rules] = await rows<{ n: number; last: string }>(
      sql`select count(*)::int as n, max(doc->>'name') filter (where id = 'r40000') as last
          from project_documents where project_id = ${project} and collection = 'rule'`,
    );
    expect(rules).toEqual({ n: 40_000, last: 'rule 40000' });
    const [stats] = await rows<{ documents: number }>(
      sql`select documents::int as documents from project_collection_stats where project_id = ${project} and collection = 'rule'`,
    );
    expect(stats?.documents).toBe(40_000);
    expect(await loadTables()).toEqual([]);
  });

  // The rows' order in the new table is what PostgreSQL sorts when it builds the key's index: loaded
  // in the key's order, that sort has nothing to do (bench/NOTES.md#dump).
  it('dumps every module by id and loads the new partition in the key’s order', async () => {
    await seed();
    // Written out of order, and one changed after (its new version lies after the others).
    for (const n of [5, 1, 4, 2, 3]) await put('rule', { id: `z${n}`, name: `rule ${n}` });
    await call('PATCH', `${CORE}/rule/r1`, { body: { threshold: 81 } });
    const id = await dump('ordered');
    const file = path.join(world.app.dataDir, 'backups', project, 'dumps', `${id}.zip`);
    const reader = new ZipReader(new Uint8ArrayReader(await readFile(file)));
    const ruleFile = (await reader.getEntries()).find(
      (entry) => entry.filename === `${BACKUP_ARCHIVE.modulesDir}/rule.jsonl`,
    );
    const ruleLines = ruleFile && !ruleFile.directory ? await ruleFile.getData(new TextWriter()) : '';
    await reader.close();
    const dumped = ruleLines
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(dumped).toEqual(['r1', 'r2', 'z1', 'z2', 'z3', 'z4', 'z5']);

    await change();
    expect(await restore(id, { database: true })).toMatchObject({ status: 'success' });
    const stored = await rows<{ collection: string; id: string }>(
      sql`select collection, id from ${sql.identifier(`project_documents_p_${md5(project)}`)} order by ctid`,
    );
    const keyOrder = await rows<{ collection: string; id: string }>(
      sql`select collection, id from project_documents where project_id = ${project} order by collection, id`,
    );
    expect(stored.length).toBeGreaterThan(30);
    expect(stored).toEqual(keyOrder);
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
