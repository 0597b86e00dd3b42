import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/database.js';
import { auditLog } from '../../db/schema.js';
import { ArchiveProblem } from '../../lib/archive/archive-problem.js';
import { ArchiveReader } from '../../lib/archive/archive-reader.js';
import { ZipFileWriter } from '../../lib/archive/zip-file-writer.js';
import { createTenant, SPM_URL } from '../../test/fixtures.js';
import { change, closeWorlds, openWorld, project, seed, type World, worlds } from '../db-backups/db-backup.fixtures.js';
import { PLATFORM_ARCHIVE } from './platform-archive.js';
import { NOT_ARCHIVED, PlatformBackupRepository } from './platform-backup.repository.js';
import {
  KEPT_AREAS,
  type PlatformBackupDeps,
  PlatformRestoreRefused,
  recoverPlatformRestore,
  restorePlatformBackup,
  writePlatformBackup,
} from './platform-backup-io.js';

const repo = new PlatformBackupRepository();
const scratch = await mkdtemp(path.join(tmpdir(), 'gantry-platform-'));
let serial = 0;
const archivePath = () => path.join(scratch, `platform-${++serial}.zip`);

function deps(w: World, log: string[] = []): PlatformBackupDeps {
  return {
    db: w.app.database.background,
    dataDir: w.app.dataDir,
    engine: w.app.database.engine,
    repo,
    log: (line) => log.push(line),
  };
}

/** Every archived table's rows (as JSON, in UTC) and every file of the data directory's areas. */
async function platformState(w: World) {
  const db = w.app.database.background;
  const tables: Record<string, string[]> = {};
  await db.transaction(async (tx) => {
    await tx.execute(sql`SET LOCAL TIME ZONE 'UTC'`);
    for (const table of (await repo.tables(tx)).filter((name) => !NOT_ARCHIVED.has(name))) {
      const rows = await queryRows<{ line: string }>(
        tx,
        sql`SELECT row_to_json(t)::text AS line FROM ${sql.identifier(table)} t`,
      );
      tables[table] = rows
        .map((row) => row.line)
        .filter((line) => !line.includes('"platform.restore"'))
        .sort();
    }
  });
  const files: Record<string, string> = {};
  const walk = async (dir: string, prefix: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const rel = `${prefix}${entry.name}`;
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), `${rel}/`);
      else
        files[rel] = createHash('sha256')
          .update(await readFile(path.join(dir, entry.name)))
          .digest('hex');
    }
  };
  for (const entry of await readdir(w.app.dataDir, { withFileTypes: true })) {
    if (KEPT_AREAS.has(entry.name) || entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) await walk(path.join(w.app.dataDir, entry.name), `${entry.name}/`);
  }
  return { tables, files };
}

async function leftovers(w: World): Promise<string[]> {
  return (await readdir(w.app.dataDir)).filter((name) => name.startsWith('.platform-restore'));
}

/** A copy of the archive `from` with entries changed by `edit` (name → bytes; undefined removes). */
async function rewrite(
  from: string,
  edit: (entries: Map<string, Buffer>) => void | Promise<void>,
  manifest?: (value: Record<string, unknown>, entries?: Map<string, Buffer>) => void,
): Promise<string> {
  const reader = await ArchiveReader.open(from);
  const entries = new Map<string, Buffer>();
  for (const entry of reader.entries) {
    const parts: Buffer[] = [];
    await reader.read(entry, (chunk) => {
      parts.push(Buffer.from(chunk));
    });
    entries.set(entry.filename, Buffer.concat(parts));
  }
  await reader.close();
  await edit(entries);
  if (manifest) {
    const value = JSON.parse((entries.get(PLATFORM_ARCHIVE.manifest) as Buffer).toString('utf8')) as Record<
      string,
      unknown
    >;
    manifest(value, entries);
    entries.set(PLATFORM_ARCHIVE.manifest, Buffer.from(JSON.stringify(value)));
  }
  const file = archivePath();
  const zip = await ZipFileWriter.create(file);
  for (const [name, bytes] of entries) await zip.add(name, [bytes], { expectedSize: bytes.length });
  await zip.finish();
  return file;
}

/** Makes the manifest match the entries again (sizes, hashes, row counts): a consistent archive. */
function resign(manifest: Record<string, unknown>, entries?: Map<string, Buffer>) {
  if (!entries) return;
  const listed = manifest.entries as Array<{ path: string; size: number; sha256: string }>;
  for (const entry of listed) {
    const bytes = entries.get(entry.path) as Buffer;
    entry.size = bytes.length;
    entry.sha256 = createHash('sha256').update(bytes).digest('hex');
    const table = /^tables\/(.+)\.jsonl$/.exec(entry.path)?.[1];
    if (table) {
      const rows = bytes
        .toString('utf8')
        .split('\n')
        .filter((line) => line !== '').length;
      (manifest.tables as Record<string, { rows: number }>)[table] = { rows };
    }
  }
}

afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('whole-platform backup and restore (issue 13 §4)', () => {
  afterEach(closeWorlds);

  it('restores every table and file exactly as backed up, signs everyone out, and the platform goes on working', async () => {
    const w = await openWorld();
    worlds.current = w;
    await seed(w);
    await seed(w, 'plant2');
    const before = await platformState(w);
    expect(before.tables.users?.length).toBeGreaterThanOrEqual(3);
    expect(before.tables.project_documents?.length).toBeGreaterThan(60);
    expect(Object.keys(before.files).some((name) => name.startsWith('projects/plant1/fileServer/docs/'))).toBe(true);

    const file = archivePath();
    const log: string[] = [];
    const summary = await writePlatformBackup(deps(w, log), file);
    expect(summary.tables.projects?.rows).toBe(3);
    expect(Object.keys(summary.tables)).not.toContain('sessions');
    expect(log.some((line) => line.startsWith('archive:'))).toBe(true);

    // Everything changes: documents, files, a new tenant, a deleted project, the settings.
    await change(w);
    await createTenant(w.app, w.admin, 'latecomer');
    const deleted = await w.app.call('DELETE', `${SPM_URL}/project/plant2`, w.acme);
    expect(deleted.statusCode, deleted.body).toBe(200);
    await writeFile(path.join(w.app.dataDir, 'stray.txt'), 'not in the backup');
    expect(await platformState(w)).not.toEqual(before);

    const manifest = await restorePlatformBackup(deps(w), file, { id: 'cli', name: 'test' });
    expect(manifest.engine).toBe(w.app.database.engine);
    expect(await platformState(w)).toEqual(before);
    expect(await leftovers(w)).toEqual([]);
    const [sessions] = await queryRows<{ n: number }>(w.app.database.db, sql`SELECT count(*)::int AS n FROM sessions`);
    expect(sessions?.n).toBe(0);
    // The restore is in the audit log; the counts the triggers keep match the restored rows.
    const [entry] = await queryRows<{ actor: string }>(
      w.app.database.db,
      sql`SELECT actor_name AS actor FROM audit_log WHERE action = 'platform.restore'`,
    );
    expect(entry?.actor).toBe('test');
    const [counts] = await queryRows<{ n: number }>(
      w.app.database.db,
      sql`SELECT coalesce(sum(n), 0)::int AS n FROM project_counts`,
    );
    expect(counts?.n).toBe(3);
    // Sequences went past the restored ids: a new audit entry is written.
    await w.app.database.db
      .insert(auditLog)
      .values({ actorId: 'x', actorName: 'x', action: 'after', objectType: 'platform' });
    // The restored accounts sign in with their passwords.
    const token = await w.app.login();
    expect((await w.app.call('GET', `${SPM_URL}/project/${project}`, token)).statusCode).toBe(200);
  });

  it('moves a platform from the embedded engine to the other engine (PostgreSQL in the PostgreSQL pass)', async () => {
    const source = await openWorld({ engine: 'pglite' });
    await seed(source);
    const file = archivePath();
    await writePlatformBackup(deps(source), file);
    const expected = await platformState(source);

    const target = await openWorld();
    worlds.current = target;
    await seed(target, 'plant2');
    await restorePlatformBackup(deps(target), file, { id: 'cli', name: 'move' });
    expect(await platformState(target)).toEqual(expected);
  });
});

describe('whole-platform restore on one shared platform (issue 13 §4)', () => {
  let shared: World;
  beforeAll(async () => {
    shared = await openWorld();
    worlds.current = shared;
    await seed(shared);
  });
  afterAll(closeWorlds);

  it('refuses hostile or damaged archives before anything changes', async () => {
    const w = shared;
    const good = archivePath();
    await writePlatformBackup(deps(w), good);
    await change(w);
    const state = await platformState(w);

    const cases: Array<[string, Promise<string>, string]> = [
      [
        'zip-slip',
        rewrite(good, (entries) => {
          entries.set('files/../../escape.txt', Buffer.from('x'));
        }),
        'unsafePath',
      ],
      [
        'unknown table',
        rewrite(
          good,
          (entries) => {
            entries.set('tables/pg_authid.jsonl', Buffer.from('{"a":1}\n'));
          },
          (manifest) => {
            (manifest.tables as Record<string, unknown>).pg_authid = { rows: 1 };
          },
        ),
        'unknownModule',
      ],
      [
        'changed row',
        rewrite(good, (entries) => {
          const users = entries.get('tables/users.jsonl') as Buffer;
          entries.set('tables/users.jsonl', Buffer.from(users.toString('utf8').replace('"acme"', '"evil"')));
        }),
        'size|hash',
      ],
      [
        'missing file',
        rewrite(good, (entries) => {
          const name = [...entries.keys()].find((key) => key.startsWith('files/projects/')) as string;
          entries.delete(name);
        }),
        'missing',
      ],
      [
        'bad row',
        rewrite(
          good,
          (entries) => {
            entries.set('tables/settings.jsonl', Buffer.from('[1,2]\n'));
          },
          (manifest) => {
            const entries = manifest.entries as Array<{ path: string; size: number; sha256: string }>;
            const settings = entries.find(
              (entry) => entry.path === 'tables/settings.jsonl',
            ) as (typeof entries)[number];
            settings.size = 6;
            settings.sha256 = createHash('sha256').update('[1,2]\n').digest('hex');
            (manifest.tables as Record<string, { rows: number }>).settings = { rows: 1 };
          },
        ),
        'badDocument',
      ],
      [
        'not a zip',
        writeFile(path.join(scratch, 'junk.zip'), 'junk').then(() => path.join(scratch, 'junk.zip')),
        'notZip',
      ],
    ];
    for (const [label, made, problem] of cases) {
      const error = await restorePlatformBackup(deps(w), await made, { id: 'cli', name: 'test' }).catch(
        (e: unknown) => e,
      );
      expect(error, label).toBeInstanceOf(ArchiveProblem);
      expect((error as ArchiveProblem).problem, label).toMatch(new RegExp(`^(${problem})$`));
    }
    const older = await rewrite(
      good,
      () => {},
      (manifest) => {
        manifest.schema = { migrations: 1 };
      },
    );
    await expect(restorePlatformBackup(deps(w), older, { id: 'cli', name: 'test' })).rejects.toBeInstanceOf(
      PlatformRestoreRefused,
    );
    expect(await platformState(w)).toEqual(state);
    expect(await leftovers(w)).toEqual([]);
  });

  it('leaves out rows whose parent is not in the archive (written while a backup read the tables page by page)', async () => {
    const w = shared;
    const good = archivePath();
    await writePlatformBackup(deps(w), good);
    // As if plant1 had been deleted after its documents were read but before the projects were.
    const orphaned = await rewrite(
      good,
      (entries) => {
        const projects = (entries.get('tables/projects.jsonl') as Buffer).toString('utf8').split('\n');
        const kept = projects.filter((line) => !line.includes(`"id":"${project}"`));
        expect(kept.length).toBe(projects.length - 1);
        entries.set('tables/projects.jsonl', Buffer.from(kept.join('\n')));
      },
      resign,
    );
    const log: string[] = [];
    await restorePlatformBackup(deps(w, log), orphaned, { id: 'cli', name: 'test' });
    const [left] = await queryRows<{ n: number }>(
      w.app.database.db,
      sql`SELECT count(*)::int AS n FROM project_documents WHERE project_id = ${project}`,
    );
    expect(left?.n).toBe(0);
    expect(log.some((line) => /^project_documents: \d+ rows left out/.test(line))).toBe(true);
    const [others] = await queryRows<{ n: number }>(w.app.database.db, sql`SELECT count(*)::int AS n FROM projects`);
    expect(others?.n).toBe(2);
  });

  it('after a crash, finishes a restore whose data committed and drops one whose data did not', async () => {
    const w = shared;
    const dataDir = w.app.dataDir;
    const stage = async (id: string) => {
      const staging = path.join(dataDir, `.platform-restore-${id}`);
      await mkdir(path.join(staging, 'projects', 'plant1', 'html'), { recursive: true });
      await writeFile(path.join(staging, 'projects', 'plant1', 'html', 'index.html'), `restored ${id}`);
      await writeFile(path.join(dataDir, '.platform-restore.json'), JSON.stringify({ id, staging, movedAside: false }));
    };
    await mkdir(path.join(dataDir, 'projects', 'plant1', 'html'), { recursive: true });
    await writeFile(path.join(dataDir, 'projects', 'plant1', 'html', 'index.html'), 'current');

    await stage('uncommitted');
    expect(await recoverPlatformRestore(deps(w))).toBe('dropped');
    expect(await readFile(path.join(dataDir, 'projects', 'plant1', 'html', 'index.html'), 'utf8')).toBe('current');
    expect(await leftovers(w)).toEqual([]);

    await stage('committed');
    await repo.markRestoreCommitted(w.app.database.db, { id: 'cli', name: 'test' }, { restoreId: 'committed' });
    expect(await recoverPlatformRestore(deps(w))).toBe('finished');
    expect(await readFile(path.join(dataDir, 'projects', 'plant1', 'html', 'index.html'), 'utf8')).toBe(
      'restored committed',
    );
    expect(await leftovers(w)).toEqual([]);
    expect(await recoverPlatformRestore(deps(w))).toBe('none');
  });
});
