import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import {
  BACKUP_ARCHIVE,
  BACKUP_LIMITS,
  COLLECTIONS,
  MEDIA_LIMITS,
  RESTORE_RULE_WIRE,
  type RestorePlan,
  RestoreRule,
} from '@gantry/shared';
import { z } from 'zod';
import { ArchiveProblem } from '../../lib/archive/archive-problem.js';
import type { ArchiveEntry, ArchiveReader } from '../../lib/archive/archive-reader.js';
import { LineSplitter } from '../../lib/archive/entry-checks.js';
import { type FileStore, FileStoreError } from '../../lib/file-store.js';
import { inPool } from '../../lib/in-pool.js';
import { htmlArea, mediaArea } from '../media/media.service.js';
import type { BackupRepository, BackupRow } from './backup.repository.js';
import { type Manifest, parseDocumentLine, placeEntry } from './backup-archive.js';
import { copyRows, RowBuffers } from './copy-rows.js';
import type { LoadedCollections } from './document-partitions.repository.js';

export type FileKind = 'fileServer' | 'html';
const areaOf = (kind: FileKind, projectId: string) => (kind === 'fileServer' ? mediaArea : htmlArea)(projectId);
/** The staging folder of a restore, beside the project's areas (never inside one: no listing shows it). */
const STAGING_PREFIX = '.restore-';
const stagingArea = (projectId: string, restoreId: string) => `projects/${projectId}/${STAGING_PREFIX}${restoreId}`;

/** A restore's file swap, written before the data is committed: a restart completes or drops it. */
const journalSchema = z.object({
  restoreId: z.string(),
  projectId: z.string(),
  kinds: z.array(z.enum(['fileServer', 'html'])),
  /** Kinds whose staged files were being moved into place (their old files already set aside). */
  movingIn: z.array(z.enum(['fileServer', 'html'])).optional(),
});
type Journal = z.infer<typeof journalSchema>;

export interface RestoreRequest {
  id: string;
  projectId: string;
  rules: Record<string, RestoreRule>;
  kinds: FileKind[];
  record: BackupRow;
  /** `restoreRoute`'s answer. */
  route: RestoreRoute;
}

/**
 * How a restore's documents go in: staged and applied in one transaction, or (a whole-project
 * restore of a large project, or of one that has its own partition) loaded into a new partition;
 * on PostgreSQL by COPY, each data module checked as it loads (`checksWhileLoading`): verification
 * then leaves them out, nothing being visible before the swap.
 */
export type RestoreRoute = 'staging' | 'partition' | 'partition-checked-while-loading';

export async function restoreRoute(
  repo: BackupRepository,
  projectId: string,
  rules: Record<string, RestoreRule>,
  manifest: Manifest,
): Promise<RestoreRoute> {
  const documents = Object.values(manifest.modules).reduce((sum, module) => sum + module.documents, 0);
  if (!wholeProject(rules) || !(await repo.partitions.wanted(projectId, documents))) return 'staging';
  return repo.partitions.checksWhileLoading ? 'partition-checked-while-loading' : 'partition';
}

export interface RestoreSteps {
  progress(fraction: number): void;
  checkpoint(): Promise<void>;
  /** A line for the task's log (what was done, and how long it took). */
  log?(line: string): void;
}

/** Whether a restore makes every collection of the project exactly the archive's (Replace for all). */
const wholeProject = (rules: Record<string, RestoreRule>) =>
  COLLECTIONS.every((name) => rules[name] === RestoreRule.Replace);

/** Files extracted at once (reading an entry waits on the thread pool; a few in flight keep it busy). */
const EXTRACT_AT_ONCE = 3;
/** Ids a dry run looks up at once. */
const PLAN_BATCH = 500;
/** Document lines are staged in runs of about this many bytes (whole lines). */
const STAGE_BYTES = 4 * 1024 * 1024;

/** Row buffers kept for reuse: one run's rows being sent, the next run's being prepared. */
const ROW_BUFFERS_KEPT = 2;

/**
 * A restore's sends (runs of document lines into the database), in the order they are added and one
 * at a time, across modules: a run is read and prepared while the one before it is sent, and the
 * database loads the rows in the archive's order, which is the key's (see `applyRestore`). A failed
 * send fails the next `add` (the reading stops there) and `done`.
 */
class SendsInOrder {
  private last: Promise<void> = Promise.resolve();

  /** Waits for the send before this one, then starts this one without waiting for it. */
  async add(send: () => Promise<void>): Promise<void> {
    await this.last;
    this.last = send();
    // Met at the next add or at done.
    this.last.catch(() => undefined);
  }

  /** The last send ended (any failure thrown). */
  done(): Promise<void> {
    return this.last;
  }

  /** The last send ended, failed or not: nothing is still being written. */
  async settled(): Promise<void> {
    await this.last.catch(() => undefined);
  }
}

/** A module file not verified before the restore: its bytes and lines are checked as it loads. */
interface ModuleCheck {
  declared: { size: number; sha256: string };
  /** Its documents, as the manifest lists them. */
  documents: number;
}

/** The check of a data module's file as the manifest declares it (verifyArchive's, made while loading). */
function moduleCheck(manifest: Manifest, module: string): ModuleCheck | undefined {
  const path = `${BACKUP_ARCHIVE.modulesDir}/${module}.jsonl`;
  const declared = manifest.entries.find((entry) => entry.path === path);
  const listed = manifest.modules[module];
  return declared && listed ? { declared, documents: listed.documents } : undefined;
}

/** What to do with each run of a module's lines: `prepare` it at once (the run's bytes are reused after), then `send` it. */
interface RunHandler<T> {
  prepare(run: Buffer, lines: number, firstLine: number): T;
  send(prepared: T, lines: number): Promise<void>;
}

/**
 * Streams a module's file in the archive as runs of about STAGE_BYTES (whole lines, each ended by a
 * newline; the number of the first), each prepared as it is cut and handed to `sends`, which sends it
 * once the run before it is sent (the database and this process work at once). The lines are
 * gathered in one buffer, reused run after run: fresh memory for every run cost more in garbage
 * collection than the rest of the reading. A failed send stops the reading at the next hand-over.
 * Answers once the module's last run is handed over (it may still be being sent). With `check` (a
 * file not verified before), its size and SHA-256 are checked, and a line that outgrows the limit
 * before its end stops the reading.
 */
async function readModuleRuns<T>(
  reader: ArchiveReader,
  module: string,
  handler: RunHandler<T>,
  sends: SendsInOrder,
  check?: ModuleCheck,
): Promise<void> {
  const entry = reader.entries.find((e) => e.filename === `${BACKUP_ARCHIVE.modulesDir}/${module}.jsonl`);
  if (!entry || entry.directory) return;
  const hash = check ? createHash('sha256') : undefined;
  let size = 0;
  let pending = Buffer.allocUnsafe(Math.min(STAGE_BYTES * 2, entry.uncompressedSize + 1));
  let bytes = 0;
  let linesBefore = 0;
  /** Hands on the pending bytes up to `cut` (a line's end) and keeps the rest. */
  const emit = async (cut: number) => {
    const run = pending.subarray(0, cut);
    let lines = 0;
    for (let at = run.indexOf(10); at !== -1; at = run.indexOf(10, at + 1)) lines++;
    const prepared = handler.prepare(run, lines, linesBefore + 1);
    linesBefore += lines;
    pending.copyWithin(0, cut, bytes);
    bytes -= cut;
    await sends.add(() => handler.send(prepared, lines));
  };
  await reader.read(entry, async (chunk) => {
    if (check) {
      size += chunk.byteLength;
      if (size > check.declared.size) throw new ArchiveProblem('size', { path: entry.filename });
      hash?.update(chunk);
    }
    if (bytes + chunk.byteLength > pending.length) {
      const grown = Buffer.allocUnsafe(Math.max(pending.length * 2, bytes + chunk.byteLength));
      pending.copy(grown, 0, 0, bytes);
      pending = grown;
    }
    pending.set(chunk, bytes);
    bytes += chunk.byteLength;
    if (bytes < STAGE_BYTES) return;
    const cut = pending.lastIndexOf(10, bytes - 1) + 1;
    if (cut > 0) await emit(cut);
    // What is left is part of one line (whole lines are measured by the loader: `copyRows`).
    if (check && bytes > BACKUP_LIMITS.lineBytesMax) {
      throw new ArchiveProblem('badDocument', { module, line: linesBefore + 1 });
    }
  });
  if (bytes > 0) {
    // A module file that does not end with a newline gets it here.
    if (pending[bytes - 1] !== 10) {
      if (bytes === pending.length) {
        const grown = Buffer.allocUnsafe(bytes + 1);
        pending.copy(grown, 0, 0, bytes);
        pending = grown;
      }
      pending[bytes++] = 10;
    }
    await emit(bytes);
  }
  if (check) {
    if (size !== check.declared.size) throw new ArchiveProblem('size', { path: entry.filename });
    if (hash?.digest('hex') !== check.declared.sha256) throw new ArchiveProblem('hash', { path: entry.filename });
  }
}

/** Streams each line of a module's file in the archive (already verified) to `onLine`. */
async function readModule(
  reader: ArchiveReader,
  module: string,
  onLine: (line: string, number: number) => Promise<void> | void,
): Promise<void> {
  const entry = reader.entries.find((e) => e.filename === `${BACKUP_ARCHIVE.modulesDir}/${module}.jsonl`);
  if (!entry || entry.directory) return;
  const pending: Array<[string, number]> = [];
  const splitter = new LineSplitter(
    BACKUP_LIMITS.lineBytesMax,
    (line, number) => pending.push([line, number]),
    (number) => {
      throw new ArchiveProblem('badDocument', { module, line: number });
    },
  );
  await reader.read(entry, async (chunk) => {
    splitter.push(chunk);
    for (let next = pending.shift(); next; next = pending.shift()) await onLine(...next);
  });
  splitter.end();
  for (const [line, number] of pending) await onLine(line, number);
}

/** Creates a folder with its parents; one already there is fine. */
export async function ensureFolder(store: FileStore, area: string, segments: string[]): Promise<void> {
  try {
    await store.mkdir(area, segments);
  } catch (error) {
    if (!(error instanceof FileStoreError && error.problem === 'exists')) throw error;
  }
}

/**
 * Writes a verified archive entry to a file of a store, streamed: the inflated bytes wait for the
 * store (a slow disk or bucket must not fill the memory with a large file).
 */
export async function extractEntry(
  reader: ArchiveReader,
  entry: ArchiveEntry,
  store: FileStore,
  area: string,
  segments: string[],
): Promise<void> {
  let resume: (() => void) | undefined;
  const chunks = new Readable({
    read() {
      resume?.();
    },
  });
  chunks.once('close', () => resume?.());
  const writing = store.write(area, segments, chunks, { maxBytes: entry.uncompressedSize, overwrite: true });
  await reader
    .read(entry, async (chunk) => {
      if (chunks.push(Buffer.from(chunk)) || chunks.destroyed) return;
      await new Promise<void>((resolve) => {
        resume = resolve;
      });
      resume = undefined;
    })
    .then(
      () => chunks.push(null),
      (error: unknown) => chunks.destroy(error instanceof Error ? error : new Error(String(error))),
    );
  await writing;
}

/** Milliseconds since `began`, for the task's log. */
export function elapsed(began: number): string {
  return `${Math.round(performance.now() - began)} ms`;
}

/**
 * The dry run (issue 12 §3): per module, how many documents would be added, overwritten, kept and
 * deleted; per file kind, how many files would be added, replaced and removed.
 */
export async function planRestore(
  reader: ArchiveReader,
  manifest: Manifest,
  request: { projectId: string; rules: Record<string, RestoreRule>; kinds: FileKind[] },
  deps: { repo: BackupRepository; store: FileStore },
): Promise<RestorePlan> {
  const modules: RestorePlan['modules'] = [];
  for (const [module, rule] of Object.entries(request.rules)) {
    const existing = await deps.repo.countCollection(request.projectId, module);
    const ids = new Set<string>();
    let duplicates = 0;
    let batch: string[] = [];
    const flush = async () => {
      duplicates += await deps.repo.countExisting(request.projectId, module, batch);
      batch = [];
    };
    await readModule(reader, module, async (line) => {
      const parsed = parseDocumentLine(line);
      if (!parsed || ids.has(parsed.id)) return;
      ids.add(parsed.id);
      batch.push(parsed.id);
      if (batch.length >= PLAN_BATCH) await flush();
    });
    await flush();
    const incoming = ids.size;
    const counted =
      rule === RestoreRule.Replace
        ? { added: incoming, overwritten: 0, kept: 0, deleted: existing }
        : rule === RestoreRule.Overwrite
          ? { added: incoming - duplicates, overwritten: duplicates, kept: existing - duplicates, deleted: 0 }
          : { added: incoming - duplicates, overwritten: 0, kept: existing, deleted: 0 };
    modules.push({ module, rule: RESTORE_RULE_WIRE[rule], ...counted });
  }
  const files: RestorePlan['files'] = [];
  for (const kind of request.kinds) {
    const current = new Set<string>();
    for await (const entry of deps.store.entries(areaOf(kind, request.projectId), MEDIA_LIMITS.sizeEntriesMax)) {
      if (entry.type === 'file') current.add(entry.segments.join('/'));
    }
    let added = 0;
    let replaced = 0;
    for (const entry of manifest.entries) {
      if (!entry.path.startsWith(`${kind}/`)) continue;
      if (current.delete(entry.path.slice(kind.length + 1))) replaced++;
      else added++;
    }
    files.push({ kind, added, replaced, removed: current.size });
  }
  return { modules, files };
}

/** Writes a restore's journal atomically (a temporary file renamed into place). */
export class RestoreJournals {
  constructor(private readonly dataDir: string) {}
  private folder(): string {
    return path.join(this.dataDir, 'restore-journals');
  }
  async write(journal: Journal): Promise<void> {
    await mkdir(this.folder(), { recursive: true });
    const file = path.join(this.folder(), `${journal.restoreId}.json`);
    await writeFile(`${file}.tmp`, JSON.stringify(journal));
    await rename(`${file}.tmp`, file);
  }
  async remove(restoreId: string): Promise<void> {
    await rm(path.join(this.folder(), `${restoreId}.json`), { force: true });
  }
  async all(): Promise<Journal[]> {
    let names: string[];
    try {
      names = await readdir(this.folder());
    } catch {
      return [];
    }
    const journals: Journal[] = [];
    for (const name of names) {
      if (!name.endsWith('.json')) {
        await rm(path.join(this.folder(), name), { force: true });
        continue;
      }
      journals.push(journalSchema.parse(JSON.parse(await readFile(path.join(this.folder(), name), 'utf8'))));
    }
    return journals;
  }
}

/**
 * Swaps a restore's staged files in, kind by kind: the live area goes aside, the staged one takes its
 * place; then the staging folder, with the old areas, goes to the trash (one rename; the trash is
 * emptied in the background). Each step looks at what is there, so running it again after a crash
 * at any point finishes the swap. On disk every move is a rename; in object storage a copy then a
 * delete, so the journal says which kinds were being moved in before that move starts.
 */
async function swapFiles(store: FileStore, journals: RestoreJournals, journal: Journal): Promise<void> {
  const staging = stagingArea(journal.projectId, journal.restoreId);
  const movingIn = new Set(journal.movingIn ?? []);
  for (const kind of journal.kinds) {
    const live = areaOf(kind, journal.projectId);
    const staged = `${staging}/${kind}`;
    const old = `${staging}/old-${kind}`;
    if (!(await store.hasArea(staged))) continue;
    if (movingIn.has(kind)) {
      // Cut short while moving in: object storage moves by copy then delete, so the live area may
      // already hold files the staging area no longer has. The move is finished, never restarted.
      await store.moveArea(staged, live, { resume: true });
      continue;
    }
    if (await store.hasArea(old)) await store.discardArea(live);
    else await store.moveArea(live, old);
    movingIn.add(kind);
    await journals.write({ ...journal, movingIn: [...movingIn] });
    await store.moveArea(staged, live);
  }
  await store.discardArea(staging);
}

/**
 * Applies a verified archive to a project (issue 12 §3): documents are staged in batches, files
 * extracted to a staging folder, a journal written; then one transaction applies every module's rule
 * and inserts the restore's record, and the files are swapped in. A failure before the commit leaves
 * the project as it was; after it, the swap is finished (also by `recoverRestores` after a restart).
 */
export async function applyRestore(
  reader: ArchiveReader,
  manifest: Manifest,
  request: RestoreRequest,
  deps: { repo: BackupRepository; store: FileStore; journals: RestoreJournals },
  steps: RestoreSteps,
): Promise<Record<string, number>> {
  const { repo, store, journals } = deps;
  const staging = stagingArea(request.projectId, request.id);
  const total = Object.keys(request.rules).length + request.kinds.length + 1;
  let done = 0;
  const step = () => steps.progress(++done / total);
  const { partitions } = repo;
  const byPartition = request.route !== 'staging';
  const checkWhileLoading = request.route === 'partition-checked-while-loading';
  let loaded: LoadedCollections = [];
  const retarget = { from: manifest.project.id, to: request.projectId };
  const rowBuffers = new RowBuffers(ROW_BUFFERS_KEPT);
  const sends = new SendsInOrder();
  /** Not committed: the journal goes, and the staged files and documents with it. */
  const discard = async () => {
    await sends.settled();
    await store.discardArea(staging);
    await repo.clearStaging(request.id);
    await partitions.dropLoad(request.id);
    await journals.remove(request.id);
  };
  try {
    const began = performance.now();
    let staged = 0;
    if (byPartition) await partitions.createLoad(request.id, request.projectId);
    // In the key's order: modules by name, each module's lines as the dump wrote them (by id), sent one
    // run after another. A new table's rows lie in the order they are loaded, and PostgreSQL builds
    // the key's index from rows already in its order about 2.5 times faster (bench/NOTES.md#dump).
    for (const module of Object.keys(request.rules).sort()) {
      const check = checkWhileLoading ? moduleCheck(manifest, module) : undefined;
      let documents = 0;
      if (check) {
        const target = { projectId: request.projectId, module, retarget };
        await readModuleRuns(
          reader,
          module,
          {
            prepare: (run, _lines, firstLine) => copyRows(run, firstLine, target, rowBuffers),
            send: async (rows) => {
              try {
                await steps.checkpoint();
                const copied = await partitions.copy(request.id, request.projectId, rows, retarget);
                documents += copied;
              } finally {
                rowBuffers.give(rows.buffer);
              }
            },
          },
          sends,
          check,
        );
      } else {
        await readModuleRuns(
          reader,
          module,
          {
            // The run's text, less its last newline.
            prepare: (run) => run.toString('utf8', 0, run.length - 1),
            send: async (text, lines) => {
              await steps.checkpoint();
              const added = byPartition
                ? await partitions.load(request.id, request.projectId, module, text, retarget)
                : await repo.stageDocuments(request.id, module, text, retarget);
              if (added !== lines) throw new ArchiveProblem('duplicate', { module });
              documents += added;
            },
          },
          sends,
        );
      }
      // Once the module's last run is loaded. As verification counts: one document past the listed
      // ones is a bad line.
      await sends.add(async () => {
        if (check && documents !== check.documents)
          throw new ArchiveProblem('badDocument', { module, line: documents + 1 });
        staged += documents;
        step();
      });
    }
    await sends.done();
    if (byPartition) {
      const indexing = performance.now();
      loaded = await partitions.finishLoad(request.id);
      steps.log?.(
        `documents: ${staged} loaded into a new partition in ${elapsed(began)} (its indexes ${elapsed(indexing)})`,
      );
    } else if (staged > 0) {
      steps.log?.(`documents: ${staged} staged in ${elapsed(began)}`);
    }
    const extracting = performance.now();
    let extracted = 0;
    for (const kind of request.kinds) {
      const area = `${staging}/${kind}`;
      await store.removeArea(area);
      await ensureFolder(store, area, []);
      // Folders first (in order), then the files, a few at once (each entry is read by random access).
      const files: Array<{ entry: ArchiveEntry; segments: string[] }> = [];
      for (const entry of reader.entries) {
        const place = placeEntry(entry.directory ? entry.filename.replace(/\/$/, '') : entry.filename);
        if (place instanceof ArchiveProblem || place.kind === 'manifest' || place.kind !== kind) continue;
        if (entry.directory) await ensureFolder(store, area, place.segments);
        else files.push({ entry, segments: place.segments });
      }
      await inPool(files, EXTRACT_AT_ONCE, async ({ entry, segments }) => {
        await steps.checkpoint();
        await ensureFolder(store, area, segments.slice(0, -1));
        await extractEntry(reader, entry, store, area, segments);
        extracted++;
      });
      step();
    }
    if (request.kinds.length > 0) steps.log?.(`files: ${extracted} extracted to staging in ${elapsed(extracting)}`);
    await steps.checkpoint();
    await journals.write({ restoreId: request.id, projectId: request.projectId, kinds: request.kinds });
  } catch (error) {
    await discard();
    throw error;
  }
  let written: Record<string, number>;
  const applying = performance.now();
  try {
    if (byPartition) {
      const counts = new Map(loaded.map((row) => [row.collection, row.documents]));
      written = Object.fromEntries(Object.keys(request.rules).map((module) => [module, counts.get(module) ?? 0]));
      await partitions.swapIn(request.id, request.projectId, loaded, { ...request.record, documents: written });
      // The previous partition goes after the restore, not in its time; if this fails, recovery's
      // sweep of stray load tables drops it.
      partitions.dropRetired(request.id).catch(() => undefined);
      await repo.announceRestored(request.projectId);
      steps.log?.(`documents: the new partition swapped in in ${elapsed(applying)}`);
    } else {
      written = await repo.applyStaged(request.id, request.projectId, request.rules, request.record);
      steps.log?.(`documents: applied in one transaction in ${elapsed(applying)}`);
    }
  } catch (error) {
    await discard();
    throw error;
  }
  const swapping = performance.now();
  await swapFiles(store, journals, { restoreId: request.id, projectId: request.projectId, kinds: request.kinds });
  await journals.remove(request.id);
  await repo.clearStaging(request.id);
  steps.log?.(`files swapped in and staging cleared in ${elapsed(swapping)}`);
  step();
  return written;
}

/**
 * After a restart: each journal left by a restore is finished (its record committed: the files are
 * swapped in) or dropped (not committed: the staged files go to the trash); staged documents of
 * restores no longer running are removed. Answers how many were finished and dropped. Every file
 * step is a rename (the trash is emptied in the background, `Trash`), so a start that runs this
 * before it listens is not held up by a large restore's leftovers.
 */
export async function recoverRestores(deps: {
  repo: BackupRepository;
  store: FileStore;
  journals: RestoreJournals;
  /** False when the start's recovery check found no staging row and no load table (`restoresLeftOver`). */
  inDatabase?: boolean;
}): Promise<{ finished: number; dropped: number }> {
  let finished = 0;
  let dropped = 0;
  for (const journal of await deps.journals.all()) {
    // Another process's restore, still running: its own work.
    if (await deps.repo.taskOngoing(journal.restoreId)) continue;
    if (await deps.repo.exists(journal.restoreId)) {
      await swapFiles(deps.store, deps.journals, journal);
      finished++;
    } else {
      await deps.store.discardArea(stagingArea(journal.projectId, journal.restoreId));
      dropped++;
    }
    await deps.journals.remove(journal.restoreId);
  }
  // Staging folders of restores stopped before their journal was written (a kill while staging).
  for (const files of await deps.store.areasUnder('projects', 'fileServer')) {
    const project = files.slice(0, -'/fileServer'.length);
    for (const child of await deps.store.areasUnder(project, 'x')) {
      const name = child.split('/').at(-2) ?? '';
      if (!name.startsWith(STAGING_PREFIX)) continue;
      if (await deps.repo.taskOngoing(name.slice(STAGING_PREFIX.length))) continue;
      await deps.store.discardArea(`${project}/${name}`);
      dropped++;
    }
  }
  if (deps.inDatabase !== false) {
    await deps.repo.clearStrayStaging();
    await deps.repo.partitions.dropStrayLoads();
  }
  return { finished, dropped };
}
