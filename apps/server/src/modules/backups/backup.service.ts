import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { PassThrough, type Readable, Writable } from 'node:stream';
import {
  BACKUP_KINDS,
  BACKUP_LIMITS,
  BACKUP_TASK_EXPORT,
  BACKUP_TASK_IMPORT,
  type BackupExportQuery,
  type BackupImportQuery,
  type BackupKind,
  type BackupSizeView,
  type BackupView,
  DB_BACKUP_TASK_RESTORE,
  DEFAULT_LANGUAGE,
  LANGUAGES,
  type Language,
  type RestorePlan,
  RestoreRule,
  TaskState,
  toWholeMb,
  translate,
  uploadRecordName,
} from '@gantry/shared';
import { ZipWriter } from '@zip.js/zip.js';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { ArchiveProblem, WrongPassword } from '../../lib/archive/archive-problem.js';
import { ArchiveReader } from '../../lib/archive/archive-reader.js';
import { configureZip } from '../../lib/archive/zip-codec.js';
import type { Clock } from '../../lib/clock.js';
import type { FileStore } from '../../lib/file-store.js';
import type { ListTotal } from '../../lib/list-count.js';
import { isPlainObject } from '../../lib/list-query/bad-query.js';
import { mapQueryError, parseListQuery } from '../../lib/list-query/list-query.js';
import { moveToTrash } from '../../lib/trash.js';
import type { GatedProject } from '../../plugins/project-gate.js';
import type { DocumentRepository } from '../documents/document.repository.js';
import { htmlArea, mediaArea } from '../media/media.service.js';
import type { ArchiveMetrics } from '../metrics/metrics.js';
import type { TaskContext, TaskEngine } from '../tasks/task.engine.js';
import { projectOf, SERVER_STOPPED, TaskError, taskType } from '../tasks/task.engine.js';
import type { UserRow } from '../users/user.repository.js';
import { presentBackup } from './backup.presenter.js';
import { BACKUP_RESOURCE, type BackupRepository, type BackupRow } from './backup.repository.js';
import { type Manifest, readManifest, verifyArchive } from './backup-archive.js';
import { fileBytes, writeBackup } from './backup-export.js';
import { BackupFiles } from './backup-files.js';
import { elapsed, planRestore, RestoreJournals, recoverRestores } from './backup-restore.js';
import { restoreArchive } from './restore-archive.js';

/** The project a backup call works on, checked for the caller. */
export interface BackupContext {
  projectId: string;
  projectName: string;
  enabled: boolean;
}

/** The backup calls' view of the project the project gate resolved for the caller. */
export function backupContext(project: GatedProject): BackupContext {
  return { projectId: project.id, projectName: project.name, enabled: project.enabled };
}

export interface BackupServiceOptions {
  dataDir: string;
  /** The largest backup file an upload may bring. */
  uploadMaxBytes: number;
  /** Safety backups kept per project (the oldest beyond go). */
  safetyKeep: number;
  /** The only server on its database (the embedded engine): any partial archive at start is a leftover. */
  onlyProcess: boolean;
  /** Told each backup and restore's bytes and time (only when metrics are on). */
  metrics?: ArchiveMetrics | undefined;
  /** Archives kept in the file store (object storage) rather than the data directory. */
  archivesInStore?: boolean;
}

/** Restores whose task a kill may have failed after their data committed (`recover`). */
const STOPPED_RESTORES = [BACKUP_TASK_IMPORT, DB_BACKUP_TASK_RESTORE];
/** A partial archive untouched this long is a leftover of a stopped server (another process may be writing newer ones). */
const PARTIAL_STALE_MS = 60 * 60 * 1000;

/** What every task that writes an archive is given (project backups, database dumps): its name, the folders left out, the language of its outcome. */
export const archiveTaskParams = {
  name: z.string(),
  excludedDirs: z.array(z.string()),
  language: z.enum(LANGUAGES),
};
const backupItem = z.object({ fileServer: z.boolean(), html: z.boolean(), mongodb: z.boolean() });
const exportTask = taskType(
  BACKUP_TASK_EXPORT,
  z.object({ ...archiveTaskParams, item: backupItem, modules: z.array(z.string()) }),
);
export const importTask = taskType(
  BACKUP_TASK_IMPORT,
  z.object({
    backupId: z.string(),
    name: z.string(),
    item: backupItem,
    rules: z.record(z.string(), z.enum(RestoreRule)),
    language: z.enum(LANGUAGES),
  }),
);
type ImportParams = z.infer<typeof importTask.params>;

const problemError = (problem: ArchiveProblem) =>
  new AppError('backupArchiveInvalid', { params: { ...problem.params, problem: problem.messageKey } });

/** Pads a time as the safety backup's name shows it (YYYY-MM-DD HH:mm:ss, the server's time zone). */
function stamp(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
}

/**
 * Project backups and restores (issue 12; backups-data-designer.md §2–§9). The administrator and the
 * tenant that owns a project may use them; anybody else gets 404, as if the project did not exist.
 * Backups and restores are tasks (progress on `historycomputed`, pause at safe points).
 */
export class BackupService {
  private readonly files: BackupFiles;
  private readonly journals: RestoreJournals;
  private recovered = false;

  constructor(
    private readonly repo: BackupRepository,
    private readonly projects: Pick<DocumentRepository, 'projectAccess'>,
    private readonly store: FileStore,
    private readonly tasks: TaskEngine,
    private readonly clock: Clock,
    private readonly options: BackupServiceOptions,
  ) {
    this.files = new BackupFiles(options.dataDir, options.archivesInStore ? store : undefined);
    this.journals = new RestoreJournals(options.dataDir);
    configureZip();
    tasks.register(exportTask, (context, params) => this.runExport(context, params));
    tasks.register(importTask, (context, params) => this.runImport(context, params));
  }

  /** The largest backup file an upload may bring. */
  get uploadMaxBytes(): number {
    return this.options.uploadMaxBytes;
  }

  /**
   * At start (and then periodically): restores a restart cut short are finished or dropped; archives
   * left half-written go, and so do whole ones whose record was never inserted (a stop between the
   * rename and the insert). Only at the first call of the only process is everything a leftover;
   * later calls (and other processes) leave what changed within the last hour.
   */
  async recover({ inDatabase = true }: { inDatabase?: boolean } = {}): Promise<{
    finished: number;
    dropped: number;
    partials: number;
  }> {
    const everything = this.options.onlyProcess && !this.recovered;
    this.recovered = true;
    const { repo, store, journals } = this;
    const restores = await recoverRestores({ repo, store, journals, inDatabase });
    // A restore killed after its commit, before its task said so: the task says it now.
    const stopped = inDatabase ? await repo.committedButStopped(STOPPED_RESTORES, SERVER_STOPPED) : [];
    for (const task of stopped) {
      const language = LANGUAGES.find((known) => known === task.language) ?? DEFAULT_LANGUAGE;
      const message = translate(
        task.type === DB_BACKUP_TASK_RESTORE ? 'dbBackup.restored' : 'backup.restored',
        language,
      );
      await this.repo.markTaskSucceeded(task.id, message, this.clock());
    }
    let partials = 0;
    const root = this.files.folder('');
    for (const project of await readdir(root).catch((): string[] => [])) {
      const folder = this.files.folder(project);
      for (const name of await readdir(folder).catch((): string[] => [])) {
        const partial = name.startsWith('.partial-');
        if (!partial && (!name.endsWith('.zip') || (await this.repo.find(project, name.slice(0, -'.zip'.length))))) {
          continue;
        }
        const file = this.files.archive(project, name);
        const changed = (await stat(file).catch(() => undefined))?.mtimeMs ?? 0;
        if (!everything && changed > this.clock().getTime() - PARTIAL_STALE_MS) continue;
        // A partial archive, or the folder of its data modules being deflated (`.partial-<id>.spool`):
        // to the trash (one rename, whatever its size; removed in the background).
        if (await moveToTrash(this.options.dataDir, file, name.replace(/^\.+/, ''))) partials++;
      }
    }
    return { ...restores, partials };
  }

  /**
   * True in the database when `recover` has work there (what the files show it finds anyway): the
   * start asks once, with the other modules' conditions, and passes `inDatabase: false` when not.
   */
  leftOver(): SQL {
    return this.repo.restoresLeftOver(STOPPED_RESTORES, SERVER_STOPPED);
  }

  /** `getSizeAndTime`: per content kind, whole MB (and bytes, and documents or files). */
  async sizes(context: BackupContext, excludedDirs: string[]): Promise<BackupSizeView> {
    const skip = excludedDirs.map((dir) => dir.split('/').filter(Boolean));
    const [media, html, stats] = await Promise.all([
      fileBytes(this.store, mediaArea(context.projectId), skip),
      fileBytes(this.store, htmlArea(context.projectId), []),
      this.repo.collectionStats(context.projectId),
    ]);
    const documents = stats.reduce((sum, row) => sum + row.documents, 0);
    const documentBytes = stats.reduce((sum, row) => sum + row.bytes, 0);
    return [
      { name: 'fileServer', size: toWholeMb(media.bytes), bytes: media.bytes, count: media.files },
      { name: 'html', size: toWholeMb(html.bytes), bytes: html.bytes, count: html.files },
      { name: 'mongodb', size: toWholeMb(documentBytes), bytes: documentBytes, count: documents },
    ];
  }

  async startExport(context: BackupContext, user: UserRow, query: BackupExportQuery, language: Language) {
    const params: z.infer<typeof exportTask.params> = {
      name: query.name,
      item: query.item,
      modules: query.modules,
      excludedDirs: query.excludedDirs,
      language,
    };
    const task = await this.tasks.submit(exportTask, {
      projectId: context.projectId,
      requester: user.id,
      requestId: query.requestId,
      params,
    });
    return { id: task.id, requestId: task.requestId };
  }

  /** Checks what can be checked at once (the record, its parts, the archive's structure). */
  private async restorable(context: BackupContext, query: BackupImportQuery) {
    if (!context.enabled) throw new AppError('projectReadOnly');
    const record = await this.repo.find(context.projectId, query.id);
    if (record?.type !== 'export' || !record.file) throw new AppError('backupNotFound');
    const missing: string[] = BACKUP_KINDS.filter((kind) => query.item[kind] && !record.item[kind]);
    if (query.item.mongodb && record.item.mongodb) {
      missing.push(...Object.keys(query.rules).filter((module) => !(module in record.documents)));
    }
    if (missing.length > 0) throw new AppError('backupPartMissing', { params: { parts: missing.join(', ') } });
    return record;
  }

  async plan(context: BackupContext, query: BackupImportQuery): Promise<RestorePlan> {
    const record = await this.restorable(context, query);
    const reader = await this.openArchive(record);
    try {
      const manifest = await readManifest(reader).catch((error: unknown) => {
        throw error instanceof ArchiveProblem ? problemError(error) : error;
      });
      return await planRestore(
        reader,
        manifest,
        { projectId: context.projectId, rules: query.item.mongodb ? query.rules : {}, kinds: fileKinds(query.item) },
        { repo: this.repo, store: this.store },
      );
    } finally {
      await reader.close();
    }
  }

  async startImport(context: BackupContext, user: UserRow, query: BackupImportQuery, language: Language) {
    const record = await this.restorable(context, query);
    // One restore at a time per project: two would swap the same folders.
    if (await this.repo.running(context.projectId, BACKUP_TASK_IMPORT)) throw new AppError('backupRestoreRunning');
    const params: ImportParams = {
      backupId: record.id,
      name: query.name ?? record.name,
      item: query.item,
      rules: query.item.mongodb ? query.rules : {},
      language,
    };
    const task = await this.tasks.submit(importTask, {
      projectId: context.projectId,
      requester: user.id,
      requestId: query.requestId,
      params,
    });
    return { id: task.id, requestId: task.requestId };
  }

  async list(
    context: BackupContext,
    rawQuery: string | undefined,
  ): Promise<{ items: BackupView[]; total?: ListTotal }> {
    const query = parseListQuery(rawQuery, BACKUP_RESOURCE);
    try {
      const [rows, total] = await Promise.all([
        this.repo.list(context.projectId, query),
        query.withCount ? this.repo.total(context.projectId, query.where) : undefined,
      ]);
      return { items: rows.map(presentBackup), ...(total ? { total } : {}) };
    } catch (error) {
      throw mapQueryError(error);
    }
  }

  async get(context: BackupContext, id: string): Promise<BackupView> {
    const row = await this.repo.find(context.projectId, id);
    if (!row) throw new AppError('backupNotFound');
    return presentBackup(row);
  }

  async rename(context: BackupContext, id: string, name: string): Promise<BackupView> {
    const row = await this.repo.rename(context.projectId, id, name, this.clock());
    if (!row) throw new AppError('backupNotFound');
    return presentBackup(row);
  }

  async remove(context: BackupContext, id: string): Promise<void> {
    const row = await this.repo.remove(context.projectId, id);
    if (!row) throw new AppError('backupNotFound');
    if (row.file) await this.files.discard(context.projectId, row.file);
  }

  /**
   * The archive as a stream, named by the record (`<name>.zip`). With a verification code: the same
   * entries in an AES-256 encrypted zip, made as it is sent (the stored archive stays as it is).
   */
  async download(
    context: BackupContext,
    id: string,
    password: string | undefined,
  ): Promise<{ stream: Readable; name: string; size?: number }> {
    const row = await this.repo.find(context.projectId, id);
    if (!row?.file) throw new AppError('backupNotFound');
    return this.keptDownload(
      this.files,
      context.projectId,
      row.file,
      `${row.name || 'project backup file'}.zip`,
      password,
    );
  }

  /** A kept archive of `files` (project or database backups) as a download named `name`, encrypted with a verification code. */
  async keptDownload(
    files: BackupFiles,
    projectId: string,
    file: string,
    name: string,
    password: string | undefined,
  ): Promise<{ stream: Readable; name: string; size?: number }> {
    if (password)
      return this.encrypted(await files.openLocal(projectId, file, (local) => this.openFile(local)), name, password);
    const kept = await files.stream(projectId, file);
    if (!kept) throw new AppError('backupNotFound');
    return { ...kept, name };
  }

  /**
   * An archive on disk as a download named `name`; with a verification code, the same entries in an
   * AES-256 encrypted zip made as it is sent (the stored archive stays as it is). Database backups too.
   */
  async archiveStream(
    file: string,
    name: string,
    password: string | undefined,
  ): Promise<{ stream: Readable; name: string; size?: number }> {
    if (!password) {
      const { size } = await stat(file).catch(() => {
        throw new AppError('backupNotFound');
      });
      return { stream: createReadStream(file), name, size };
    }
    return this.encrypted(await this.openFile(file), name, password);
  }

  /** The entries of `reader` as an AES-256 encrypted zip, made as it is sent. */
  private encrypted(reader: ArchiveReader, name: string, password: string): { stream: Readable; name: string } {
    const output = new PassThrough();
    const zip = new ZipWriter(Writable.toWeb(output), { password, encryptionStrength: 3, keepOrder: true });
    (async () => {
      await reader.copyInto(zip);
      await zip.close();
    })()
      .catch((error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))))
      .finally(() => reader.close());
    return { stream: output, name };
  }

  /**
   * An uploaded backup file (multipart `file`): a zip (by its name and its first bytes), streamed to
   * disk within the size limit, decrypted with `password` when it is protected, verified whole, then
   * listed as a backup of this project (made from the project its manifest names).
   */
  async upload(
    context: BackupContext,
    filename: string,
    source: Readable,
    password: string | undefined,
  ): Promise<BackupView> {
    const { id, base, manifest, file, size } = await this.receiveArchive(
      filename,
      source,
      password,
      this.files,
      context.projectId,
    );
    const now = this.clock();
    const row: BackupRow = {
      id,
      projectId: context.projectId,
      name: base,
      type: 'export',
      status: TaskState.Succeeded,
      item: manifest.item,
      moduleRules: Object.fromEntries(Object.keys(manifest.modules).map((module) => [module, RestoreRule.Overwrite])),
      excludedDirs: manifest.excludedDirs,
      documents: Object.fromEntries(Object.entries(manifest.modules).map(([module, m]) => [module, m.documents])),
      bytes: size,
      file,
      restoreFile: null,
      sourceProjectId: manifest.project.id,
      safety: false,
      taskId: null,
      createTime: now,
      updateTime: now,
    };
    try {
      await this.repo.insert(row);
    } catch (error) {
      await this.files.discard(context.projectId, file);
      throw error;
    }
    return presentBackup(row);
  }

  /**
   * Receives an uploaded archive into `files` of a project (project and database backups alike): a
   * zip by its name and first bytes, within the size limit, decrypted with `password` when protected,
   * verified whole, then renamed to `<id>.zip`. The caller records it (and removes the file if it cannot).
   */
  async receiveArchive(
    filename: string,
    source: Readable,
    password: string | undefined,
    files: BackupFiles,
    projectId: string,
  ): Promise<{ id: string; base: string; manifest: Manifest; file: string; size: number }> {
    if (!filename.toLowerCase().endsWith('.zip')) throw new AppError('backupUploadNotZip');
    const base = uploadRecordName(filename);
    if (!base) throw new AppError('backupUploadName');
    const id = `u${randomBytes(10).toString('hex')}`;
    await mkdir(files.folder(projectId), { recursive: true });
    const partial = files.partial(projectId, id);
    const plain = files.partial(projectId, `${id}-plain`);
    try {
      await this.receive(source, partial);
      if (password) {
        await this.decrypt(partial, plain, password);
        await rename(plain, partial);
      }
      const reader = await ArchiveReader.open(partial).catch((error: unknown) => {
        throw error instanceof ArchiveProblem ? problemError(error) : error;
      });
      let manifest: Manifest;
      try {
        manifest = await verifyArchive(reader);
      } catch (error) {
        throw error instanceof ArchiveProblem ? problemError(error) : error;
      } finally {
        await reader.close();
      }
      const file = `${id}.zip`;
      const { size } = await stat(partial);
      await files.keep(projectId, partial, file);
      return { id, base, manifest, file, size };
    } finally {
      await rm(partial, { force: true });
      await rm(plain, { force: true });
    }
  }

  /** Streams an upload to `file`: over the limit → backupTooLarge; not starting as a zip → backupUploadNotZip. */
  private async receive(source: Readable, file: string): Promise<void> {
    const handle = await open(file, 'wx', 0o600);
    let size = 0;
    try {
      for await (const chunk of source) {
        const bytes: Buffer = chunk;
        if (size === 0 && bytes.length >= 2 && (bytes[0] !== 0x50 || bytes[1] !== 0x4b)) {
          throw new AppError('backupUploadNotZip');
        }
        size += bytes.length;
        if (size > this.options.uploadMaxBytes) {
          throw new AppError('backupTooLarge', { params: { max: toWholeMb(this.options.uploadMaxBytes) } });
        }
        for (let offset = 0; offset < bytes.length; ) offset += (await handle.write(bytes, offset)).bytesWritten;
      }
      if ('truncated' in source && source.truncated === true) {
        throw new AppError('backupTooLarge', { params: { max: toWholeMb(this.options.uploadMaxBytes) } });
      }
      if (size < 22) throw new AppError('backupUploadNotZip');
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** Writes the entries of the protected archive `from` into a plain one, `to`. */
  private async decrypt(from: string, to: string, password: string): Promise<void> {
    const reader = await ArchiveReader.open(from, password).catch((error: unknown) => {
      throw error instanceof ArchiveProblem ? problemError(error) : error;
    });
    const output = createWriteStream(to, { flags: 'wx', mode: 0o600 });
    const zip = new ZipWriter(Writable.toWeb(output), { keepOrder: true });
    try {
      // The structure first (manifest, names, declared sizes): only a sound archive is decrypted whole.
      await readManifest(reader);
      await reader.copyInto(zip);
      await zip.close();
    } catch (error) {
      if (error instanceof WrongPassword) throw new AppError('backupPasswordWrong');
      if (error instanceof ArchiveProblem) throw problemError(error);
      throw error;
    } finally {
      await reader.close();
      if (!output.closed) {
        output.destroy();
        await new Promise<void>((resolve) => output.once('close', () => resolve()));
      }
    }
  }

  private async openArchive(row: BackupRow): Promise<ArchiveReader> {
    if (!row.file) throw new AppError('backupNotFound');
    return this.files.openLocal(row.projectId, row.file, (local) => this.openFile(local));
  }

  /** Opens an archive on disk: missing → backupNotFound; not a readable zip → backupArchiveInvalid. */
  async openFile(file: string): Promise<ArchiveReader> {
    try {
      return await ArchiveReader.open(file);
    } catch (error) {
      if (isPlainObject(error) && error.code === 'ENOENT') throw new AppError('backupNotFound');
      throw error instanceof ArchiveProblem ? problemError(error) : error;
    }
  }

  private async runExport(context: TaskContext, params: z.infer<typeof exportTask.params>): Promise<string> {
    const { task } = context;
    const projectId = projectOf(task);
    const began = performance.now();
    const row = await writeBackup(
      {
        id: task.id,
        projectId,
        projectName: await this.projectName(projectId),
        name: params.name,
        item: params.item,
        modules: params.modules,
        excludedDirs: params.excludedDirs,
        safety: false,
        requester: task.requester,
      },
      { repo: this.repo, store: this.store, files: this.files, now: this.clock },
      context,
    );
    context.log(`archive of ${row.bytes} bytes written in ${elapsed(began)}`);
    this.options.metrics?.backup('project', row.bytes, (performance.now() - began) / 1000);
    return translate('backup.exported', params.language);
  }

  private async runImport(context: TaskContext, params: ImportParams): Promise<string> {
    const { task } = context;
    const began = performance.now();
    const projectId = projectOf(task);
    const record = await this.repo.find(projectId, params.backupId);
    if (!record?.file) throw new TaskError(translate('backup.notFound', params.language));
    const reader = await this.openArchive(record).catch((error: unknown) => {
      throw new TaskError(error instanceof AppError ? translate('backup.notFound', params.language) : String(error));
    });
    try {
      const kinds = fileKinds(params.item);
      await restoreArchive(
        context,
        reader,
        {
          projectId,
          language: params.language,
          verify: [0, 0.3],
          plan: () => ({
            rules: params.rules,
            kinds,
            record: { name: params.name, item: params.item, bytes: record.bytes, restoreFile: record.id },
          }),
          // The safety backup: what this restore replaces, so that it can be undone.
          before: {
            until: 0.55,
            run: async (_plan, steps) => {
              const saving = performance.now();
              const safety = await writeBackup(
                {
                  id: `s${randomBytes(10).toString('hex')}`,
                  projectId,
                  projectName: await this.projectName(projectId),
                  name: translate('backup.safetyName', params.language, { time: stamp(this.clock()) }).slice(
                    0,
                    BACKUP_LIMITS.nameMax,
                  ),
                  item: {
                    fileServer: kinds.includes('fileServer'),
                    html: kinds.includes('html'),
                    mongodb: Object.keys(params.rules).length > 0,
                  },
                  modules: Object.keys(params.rules),
                  excludedDirs: [],
                  safety: true,
                  requester: task.requester,
                },
                { repo: this.repo, store: this.store, files: this.files, now: this.clock },
                steps,
              );
              context.log(`safety backup ${safety.id} written in ${elapsed(saving)}`);
            },
          },
        },
        { repo: this.repo, store: this.store, journals: this.journals, clock: this.clock },
      );
      this.options.metrics?.restore('project', record.bytes, (performance.now() - began) / 1000);
      await this.pruneSafety(projectId);
      return translate('backup.restored', params.language);
    } finally {
      await reader.close();
    }
  }

  /** A project's name (its id when it is gone), as archives record it. */
  async projectName(projectId: string): Promise<string> {
    return (await this.projects.projectAccess(projectId))?.name ?? projectId;
  }

  /** Keeps the newest `safetyKeep` safety backups of a project. */
  private async pruneSafety(projectId: string): Promise<void> {
    const rows = await this.repo.safetyBackups(projectId);
    for (const row of rows.slice(this.options.safetyKeep)) {
      await this.repo.remove(projectId, row.id);
      if (row.file) await this.files.discard(projectId, row.file);
    }
  }
}

const fileKinds = (item: Record<BackupKind, boolean>) => (['fileServer', 'html'] as const).filter((kind) => item[kind]);
