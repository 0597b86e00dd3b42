import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type Collection, tableDefinition } from '@gantry/shared';
import { eq } from 'drizzle-orm';
import { ConfigError, loadConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { projectDocuments, projects } from '../db/schema.js';
import type { FileStore } from '../lib/file-store.js';
import { S3FileStore, s3LocationOf } from '../lib/s3-file-store.js';
import { ensureFolder } from '../modules/backups/backup-restore.js';
import { admitTables, lockTables } from '../modules/licence/table-gate.js';
import type { TableDoc } from '../modules/tables/table-documents.js';
import { openConfiguredDatabase } from '../open-database.js';

const USAGE = `Fills a project with realistic demo data, for local use, tests and the benchmark.

  npm run demo -- --project ID [--docs N] [--files N] [--seed S]
      N documents (default 1000) across every data module: dashboards that reference components,
      tables of the table designer with their records, time series (data_record, spread over the
      last 90 days), users, roles, flows, drivers, reports... Tables go through the table gate: no
      more than the project's grant leaves room for (flow.tableCount), the rest of their share as
      records. Uses the server's database (GANTRY_DATA_DIR or DATABASE_URL); with the embedded
      engine, stop the server first (one process owns its files).
      --files N (default 0): N files of varied sizes (1 KiB to 2 MiB, most small, like a plant's
      drawings, photos and exports) in the project's media library, under demo/<folder>/, 100 a folder.`;

type Row = typeof projectDocuments.$inferInsert;

/** A small seeded generator, so a seed gives the same data every time. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4_294_967_296;
  };
}

/** Shares of the documents per module: most are time series, as on a real plant. */
const SHARES: Array<[Collection, number]> = [
  ['data_record', 60],
  ['table_record', 15],
  ['message', 5],
  ['component', 3],
  ['dashboard', 1],
  ['user', 2],
  ['role', 1],
  ['dept', 1],
  ['flow', 1],
  ['driver_instance', 2],
  ['rule', 1],
  ['report', 1],
  ['cron', 1],
  ['dataset', 1],
  ['system_variable', 1],
  ['data_interface', 1],
  ['theme', 1],
  ['catalog', 1],
];

const WORDS = ['pump', 'valve', 'boiler', 'fan', 'line', 'tank', 'meter', 'motor', 'filter', 'press'];

/** How many designer tables a fill of `count` documents would make (1 % of them, at least one). */
export function demoTableShare(count: number): number {
  return Math.max(1, Math.round(count / 100));
}

/** A table of the designer, published: a number and a text field (the records' `data`). */
export function demoTable(name: string, createdBy: string): TableDoc {
  const definition = tableDefinition.parse({
    fields: [
      { name: 'value', title: 'value', type: 'number' },
      { name: 'note', title: 'note', type: 'text' },
    ],
  });
  return { name, draft: definition, draftVersion: 1, published: definition, version: 1, counters: {}, createdBy };
}

/**
 * `count` documents of every module but `table`; `tables`: the designer tables the records
 * (`table_record`) belong to; with none, no records.
 */
export function demoDocuments(
  projectId: string,
  count: number,
  seed: number,
  now = Date.now(),
  tables: readonly string[] = [],
): Row[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const shares = SHARES.filter(([collection]) => collection !== 'table_record' || tables.length > 0);
  const total = shares.reduce((sum, [, share]) => sum + share, 0);
  const counts = shares.map(
    ([collection, share]) => [collection, Math.max(1, Math.ceil((count * share) / total))] as const,
  );
  const ids = new Map<Collection, string[]>();
  const rows: Row[] = [];
  const add = (collection: Collection, doc: Record<string, unknown>, at: Date) => {
    const id = `${collection.slice(0, 3)}${randomBytes(6).toString('hex')}`;
    ids.set(collection, [...(ids.get(collection) ?? []), id]);
    rows.push({ projectId, collection, id, doc, createTime: at, updateTime: at });
  };
  const day = 86_400_000;
  // Referenced modules first, so that references point at real documents.
  for (const [collection, n] of counts) {
    for (let i = 0; i < n; i++) {
      const at = new Date(now - Math.floor(next() * 90 * day));
      const name = `${pick(WORDS)} ${i + 1}`;
      switch (collection) {
        case 'component':
          add(
            collection,
            { name, kind: pick(['gauge', 'chart', 'table', 'text']), config: { color: pick(['red', 'blue']) } },
            at,
          );
          break;
        case 'dashboard':
          add(
            collection,
            { name, components: Array.from({ length: 3 }, () => pick(ids.get('component') ?? ['none'])) },
            at,
          );
          break;
        case 'table_record':
          add(collection, { table: pick(tables), data: { value: Math.round(next() * 1000), note: name } }, at);
          break;
        case 'data_record':
          add(
            collection,
            {
              point: `${pick(WORDS)}.${pick(['temp', 'pressure', 'flow'])}`,
              time: at.toISOString(),
              value: Math.round(next() * 10_000) / 100,
            },
            at,
          );
          break;
        case 'user':
          add(collection, { name, username: `user${i + 1}`, roles: [pick(ids.get('role') ?? ['operator'])] }, at);
          break;
        default:
          add(collection, { name, enabled: next() > 0.2, remarks: `demo ${collection}` }, at);
      }
    }
  }
  return rows;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      project: { type: 'string' },
      docs: { type: 'string', default: '1000' },
      files: { type: 'string', default: '0' },
      seed: { type: 'string', default: '1' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.project) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const count = Number(values.docs);
  if (!Number.isInteger(count) || count < 1 || count > 50_000_000)
    throw new ConfigError('--docs must be 1 to 50,000,000');
  const files = Number(values.files);
  if (!Number.isInteger(files) || files < 0 || files > 1_000_000)
    throw new ConfigError('--files must be 0 to 1,000,000');
  const config = loadConfig();
  const database = await openConfiguredDatabase(config, (message) => console.warn(message));
  try {
    await fillDemo(database.background, values.project, count, Number(values.seed));
  } finally {
    await database.close();
  }
  if (files > 0) {
    const location = config.s3 && s3LocationOf(config.s3);
    const bytes = await writeDemoFiles(
      config.dataDir,
      values.project,
      files,
      Number(values.seed),
      location ? new S3FileStore(location) : undefined,
    );
    if (location) location.client.destroy();
    console.log(
      `${files.toLocaleString('en')} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB, into ${values.project}'s media library`,
    );
  }
}

/** File sizes of a plant's library: most a few KiB to a few hundred, some up to 2 MiB (log-uniform). */
export function demoFileSizes(count: number, seed: number): number[] {
  const next = random(seed);
  return Array.from({ length: count }, () => Math.round(1024 * 2 ** (next() * 11)));
}

/**
 * Writes `count` demo files into the project's media library (`demo/<folder>/`), answers their bytes:
 * in the data directory, or into `store` (GANTRY_STORAGE=s3) when given.
 */
export async function writeDemoFiles(
  dataDir: string,
  projectId: string,
  count: number,
  seed: number,
  store?: FileStore,
): Promise<number> {
  const sizes = demoFileSizes(count, seed);
  const extensions = ['png', 'jpg', 'pdf', 'csv', 'dwg', 'json'];
  const area = `projects/${projectId}/fileServer`;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const segments = ['demo', `folder-${String(Math.floor(i / 100)).padStart(4, '0')}`];
    const folder = path.join(dataDir, area, ...segments);
    if (i % 100 === 0) {
      if (store) await ensureFolder(store, area, segments);
      else await mkdir(folder, { recursive: true });
    }
    const size = sizes[i] ?? 0;
    // Half random bytes (like compressed media), half text (like exports), so archives compress as real ones do.
    const content = Buffer.concat([randomBytes(Math.ceil(size / 2)), Buffer.alloc(Math.floor(size / 2), `row ${i};`)]);
    const name = `file-${String(i).padStart(6, '0')}.${extensions[i % extensions.length]}`;
    if (store) {
      await store.write(area, [...segments, name], Readable.from([content]), {
        maxBytes: content.length,
        overwrite: true,
      });
    } else {
      await writeFile(path.join(folder, name), content);
    }
    total += content.length;
  }
  return total;
}

/** Fills a project (its tables through the table gate); answers the designer tables made. */
export async function fillDemo(db: Database, projectId: string, count: number, seed: number): Promise<string[]> {
  const [project] = await db
    .select({ id: projects.id, owner: projects.userId })
    .from(projects)
    .where(eq(projects.id, projectId));
  if (!project) throw new ConfigError(`no project ${projectId}`);
  const started = performance.now();
  const tables = await addTables(db, projectId, project.owner, demoTableShare(count));
  const BATCH = 10_000;
  let written = tables.length;
  // In slices, so memory stays flat whatever the count.
  for (let offset = 0; written < count; offset += BATCH) {
    const rows = demoDocuments(projectId, Math.min(BATCH, count - written), seed + offset, Date.now(), tables);
    for (let i = 0; i < rows.length; i += 1_000) {
      await db.insert(projectDocuments).values(rows.slice(i, i + 1_000));
    }
    written += rows.length;
    process.stdout.write(`\r${written.toLocaleString('en')} documents`);
  }
  console.log(
    `\n${written.toLocaleString('en')} documents in ${Math.round(performance.now() - started)} ms into ${projectId}`,
  );
  return tables;
}

/**
 * Up to `wanted` designer tables, through the table gate (modules/licence/table-gate.ts): only as
 * many as the grant leaves room for. Answers their ids.
 */
async function addTables(db: Database, projectId: string, owner: string, wanted: number) {
  const made = await db.transaction(async (tx) => {
    const { limit, count } = await lockTables(tx, projectId);
    const room = Math.max(0, Math.min(wanted, limit - count));
    await admitTables(tx, projectId, room);
    const now = new Date();
    const rows = Array.from({ length: room }, () => {
      const key = randomBytes(6).toString('hex');
      return {
        projectId,
        collection: 'table' as const,
        id: `tab${key}`,
        doc: demoTable(`demo_${key}`, owner),
        createTime: now,
        updateTime: now,
      };
    });
    if (rows.length > 0) await tx.insert(projectDocuments).values(rows);
    return { ids: rows.map((row) => row.id), limit, count };
  });
  console.log(
    `${made.ids.length} tables (the grant allows ${made.limit}, the project had ${made.count}` +
      `${made.ids.length < wanted ? `; ${wanted - made.ids.length} not made` : ''})`,
  );
  return made.ids;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  });
}
