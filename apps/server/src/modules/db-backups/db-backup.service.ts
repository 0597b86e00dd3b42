import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  BACKUP_LIMITS,
  BACKUP_TASK_IMPORT,
  COLLECTIONS,
  DB_BACKUP_DEFAULT_FILE,
  DB_BACKUP_KINDS,
  DB_BACKUP_TASK_DUMP,
  DB_BACKUP_TASK_RESTORE,
  type DbBackupDumpBody,
  type DbBackupItem,
  type DbBackupJobView,
  type DbBackupStatsView,
  type DbBackupView,
  ERRORS,
  type FtpBackupView,
  isMessageKey,
  JobState,
  jobStateOf,
  LANGUAGES,
  type Language,
  type MessageKey,
  RestoreRule,
  TaskState,
  toWholeMb,
  translate,
  translateWithParams,
} from '@gantry/shared';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import type { ArchiveReader } from '../../lib/archive/archive-reader.js';
import type { Clock } from '../../lib/clock.js';
import type { FileStore } from '../../lib/file-store.js';
import type { ListTotal } from '../../lib/list-count.js';
import { isPlainObject } from '../../lib/list-query/bad-query.js';
import { mapQueryError, parseListQuery } from '../../lib/list-query/list-query.js';
import { moveToTrash } from '../../lib/trash.js';
import type { BackupRepository } from '../backups/backup.repository.js';
import { archiveTaskParams, type BackupContext, type BackupService } from '../backups/backup.service.js';
import type { Manifest } from '../backups/backup-archive.js';
import { writeBackup } from '../backups/backup-export.js';
import { BackupFiles } from '../backups/backup-files.js';
import { RestoreJournals } from '../backups/backup-restore.js';
import { restoreArchive } from '../backups/restore-archive.js';
import type { FtpStorage } from '../ftp/ftp-storage.js';
import { FtpStorageError } from '../ftp/ftp-storage.js';
import type { ArchiveMetrics } from '../metrics/metrics.js';
import type { TaskContext, TaskEngine } from '../tasks/task.engine.js';
import { projectOf, TaskError, taskType } from '../tasks/task.engine.js';
import type { TaskRepository } from '../tasks/task.repository.js';
import type { UserRow } from '../users/user.repository.js';
import { presentDbBackup, presentWarning } from './db-backup.presenter.js';
import {
  DB_BACKUP_RESOURCE,
  type DbBackupRepository,
  type DbBackupRow,
  type DumpSource,
} from './db-backup.repository.js';
import type { RestoringProjects } from './restore-guard.js';

/** A project's database backups: `backups/<projectId>/dumps/` (deleted with the project's backup folder). */
export class DumpFiles extends BackupFiles {
  constructor(
    private readonly root: string,
    shelf?: FileStore,
  ) {
    super(root, shelf);
  }
  override folder(projectId: string): string {
    return path.join(this.root, 'backups', projectId, 'dumps');
  }
  override area(projectId: string): string {
    return `backups/${projectId}/dumps`;
  }
}

const dbBackupItem = z.object({ fileServer: z.boolean(), html: z.boolean(), database: z.boolean() });
const dumpTask = taskType(DB_BACKUP_TASK_DUMP, z.object({ ...archiveTaskParams, item: dbBackupItem }));
type DumpParams = z.infer<typeof dumpTask.params>;
const restoreTask = taskType(
  DB_BACKUP_TASK_RESTORE,
  z.object({
    backupId: z.string(),
    item: dbBackupItem,
    /** Where the archive is: a listed database backup, or the FTP server. */
    from: z.enum(['local', 'ftp']),
    language: z.enum(LANGUAGES),
  }),
);
type RestoreParams = z.infer<typeof restoreTask.params>;

export interface DbBackupServiceDeps {
  repo: DbBackupRepository;
  /** The project backups' repository as a dump's writer sees it (its record goes to `repo`). */
  source: DumpSource;
  /** The project backups' repository: a restore's staging, its transaction and its record (the journal's commit mark). */
  backupRepo: BackupRepository;
  backups: BackupService;
  store: FileStore;
  tasks: TaskEngine;
  taskRepo: Pick<TaskRepository, 'find'>;
  restoringProjects: RestoringProjects;
  clock: Clock;
  /** FTP storage (issue 13 §2); absent: the FTP calls answer `dbBackupFtpUnavailable`. */
  ftp?: FtpStorage | undefined;
  dataDir: string;
  /** The only server on its database (the embedded engine): any partial archive at start is a leftover. */
  onlyProcess: boolean;
  /** Archives kept in the file store (object storage) rather than the data directory. */
  archivesInStore?: boolean;
  /** Told each dump and restore's bytes and time (only when metrics are on). */
  metrics?: ArchiveMetrics | undefined;
}

/** A partial archive untouched this long is a leftover of a stopped server (another process may be writing newer ones). */
const PARTIAL_STALE_MS = 60 * 60 * 1000;
/** Every collection replaced (cleared, then added): a database restore replaces the whole database. */
const WHOLE_DATABASE: Record<string, RestoreRule> = Object.fromEntries(
  COLLECTIONS.map((name) => [name, RestoreRule.Replace]),
);
/** A sidecar `<id>.json` on the FTP server is at most this long. */
const SIDECAR_MAX_BYTES = 64 * 1024;

/** The parts an archive holds as a database backup; `database` only when every collection is in it. */
export function dumpItemOf(manifest: Manifest): DbBackupItem & { whole: boolean } {
  const whole = COLLECTIONS.every((name) => name in manifest.modules);
  return {
    fileServer: manifest.item.fileServer,
    html: manifest.item.html,
    database: manifest.item.mongodb && whole,
    whole: !manifest.item.mongodb || whole,
  };
}

/**
 * Database backups of a project (issue 13 §1; backups-data-designer.md §7 "Database backup calls"):
 * a dump is the whole project (every collection and its time series, the media library minus the
 * excluded folders, the html package) in the project backups' archive; a restore replaces the chosen
 * parts whole, with the project's data calls refused meanwhile (restore-guard.ts). Dumps and restores are jobs (tasks).
 */
export class DbBackupService {
  private readonly files: DumpFiles;
  private readonly journals: RestoreJournals;
  private recovered = false;

  constructor(private readonly deps: DbBackupServiceDeps) {
    this.files = new DumpFiles(deps.dataDir, deps.archivesInStore ? deps.store : undefined);
    this.journals = new RestoreJournals(deps.dataDir);
    deps.tasks.register(dumpTask, (context, params) => this.runDump(context, params));
    deps.tasks.register(restoreTask, (context, params) => this.runRestore(context, params));
  }

  /** The largest backup file an upload may bring. */
  get uploadMaxBytes(): number {
    return this.deps.backups.uploadMaxBytes;
  }

  async stats(context: BackupContext, excludedDirs: string[]): Promise<DbBackupStatsView> {
    const sizes = await this.deps.backups.sizes(context, excludedDirs);
    return sizes.map((size) => ({ ...size, name: size.name === 'mongodb' ? 'database' : size.name }));
  }

  async startDump(context: BackupContext, user: UserRow, body: DbBackupDumpBody, language: Language) {
    const params: DumpParams = { name: body.name, item: body.item, excludedDirs: body.excludedDirs, language };
    const task = await this.deps.tasks.submit(dumpTask, { projectId: context.projectId, requester: user.id, params });
    return { id: task.id };
  }

  /**
   * A dump of the whole project under a given job id, unless a job has that id already (undefined
   * then): a periodic backup's run, named after its cycle and slot (issue 13 §3).
   */
  submitDumpOnce(id: string, projectId: string, requester: string, name: string, language: Language) {
    const params: DumpParams = {
      name,
      item: { fileServer: true, html: true, database: true },
      excludedDirs: [],
      language,
    };
    return this.deps.tasks.submitOnce(dumpTask, { id, projectId, requester, params });
  }

  async startRestore(context: BackupContext, user: UserRow, id: string, item: DbBackupItem, language: Language) {
    if (!context.enabled) throw new AppError('projectReadOnly');
    const record = await this.deps.repo.find(context.projectId, id);
    if (!record) throw new AppError('backupNotFound');
    this.assertParts(record.item, item, language);
    return this.submitRestore(context, user, { backupId: id, item, from: 'local', language });
  }

  async startFtpRestore(context: BackupContext, user: UserRow, id: string, item: DbBackupItem, language: Language) {
    if (!context.enabled) throw new AppError('projectReadOnly');
    const ftp = await this.ftp();
    const sidecar = await this.ftpSidecar(ftp, context.projectId, id);
    this.assertParts(sidecar.item, item, language);
    return this.submitRestore(context, user, { backupId: id, item, from: 'ftp', language });
  }

  private assertParts(held: DbBackupItem, chosen: DbBackupItem, _language: Language): void {
    const missing = DB_BACKUP_KINDS.filter((kind) => chosen[kind] && !held[kind]);
    if (missing.length > 0) throw new AppError('backupPartMissing', { params: { parts: missing.join(', ') } });
  }

  private async submitRestore(context: BackupContext, user: UserRow, params: RestoreParams) {
    // One restore at a time per project, of either family: two would swap the same folders.
    if (await this.deps.repo.running(context.projectId, [DB_BACKUP_TASK_RESTORE, BACKUP_TASK_IMPORT])) {
      throw new AppError('backupRestoreRunning');
    }
    const task = await this.deps.tasks.submit(restoreTask, {
      projectId: context.projectId,
      requester: user.id,
      params,
    });
    this.deps.restoringProjects.forget(context.projectId);
    return { id: task.id };
  }

  /**
   * `GET db-backup/{jobId}`: a dump or restore job of this project; running until success or failed.
   * A dump that succeeded with a problem (its FTP copy failed) carries its backup's warning, in `language`.
   */
  async job(context: BackupContext, id: string, language: Language): Promise<DbBackupJobView> {
    const task = await this.deps.taskRepo.find(id);
    if (
      !task ||
      task.projectId !== context.projectId ||
      (task.type !== DB_BACKUP_TASK_DUMP && task.type !== DB_BACKUP_TASK_RESTORE)
    ) {
      throw new AppError('notFound');
    }
    const status = jobStateOf(task.status);
    // The outcome is in the language of the call that started the job; the warning in this call's.
    const taskLanguage = LANGUAGES.find((known) => known === task.params.language) ?? 'en';
    const message =
      task.status === TaskState.Paused
        ? translate('dbBackup.paused', taskLanguage)
        : task.message !== null && isMessageKey(task.message)
          ? translate(task.message, taskLanguage)
          : (task.message ?? '');
    // A dump's backup has the job's id.
    const warning =
      task.type === DB_BACKUP_TASK_DUMP && status === JobState.Succeeded
        ? (await this.deps.repo.find(context.projectId, task.id))?.warning
        : undefined;
    return {
      id: task.id,
      type: task.type === DB_BACKUP_TASK_DUMP ? 'dump' : 'restore',
      status,
      progress: task.progress,
      log: [message, task.log].filter(Boolean).join('\n'),
      ...(warning ? { warning: presentWarning(warning, language) } : {}),
    };
  }

  async list(
    context: BackupContext,
    rawQuery: string | undefined,
    language: Language,
  ): Promise<{ items: DbBackupView[]; total?: ListTotal }> {
    const query = parseListQuery(rawQuery, DB_BACKUP_RESOURCE);
    try {
      const [rows, total] = await Promise.all([
        this.deps.repo.list(context.projectId, query),
        query.withCount ? this.deps.repo.total(context.projectId, query.where) : undefined,
      ]);
      return { items: rows.map((row) => presentDbBackup(row, language)), ...(total ? { total } : {}) };
    } catch (error) {
      throw mapQueryError(error);
    }
  }

  async remove(context: BackupContext, id: string): Promise<void> {
    const row = await this.deps.repo.remove(context.projectId, id);
    if (!row) throw new AppError('backupNotFound');
    await this.files.discard(context.projectId, row.file);
  }

  async download(context: BackupContext, id: string, password: string | undefined) {
    const row = await this.deps.repo.find(context.projectId, id);
    if (!row) throw new AppError('backupNotFound');
    return this.deps.backups.keptDownload(
      this.files,
      context.projectId,
      row.file,
      `${row.name || DB_BACKUP_DEFAULT_FILE}.zip`,
      password,
    );
  }

  /**
   * An uploaded database backup (multipart `file`): received, decrypted and verified whole as a project
   * backup upload is (same name rule, size limit and checks), then listed. An archive holding only
   * some data modules is a project backup, not a database one: refused.
   */
  async upload(
    context: BackupContext,
    filename: string,
    source: Readable,
    password: string | undefined,
    language: Language,
  ) {
    const received = await this.deps.backups.receiveArchive(filename, source, password, this.files, context.projectId);
    try {
      const item = dumpItemOf(received.manifest);
      if (!item.whole) throw new AppError('dbBackupNotWhole');
      const now = this.deps.clock();
      const row: DbBackupRow = {
        id: received.id,
        projectId: context.projectId,
        name: received.base,
        type: 'dump',
        status: TaskState.Succeeded,
        item: { fileServer: item.fileServer, html: item.html, database: item.database },
        excludedDirs: received.manifest.excludedDirs,
        documents: Object.fromEntries(
          Object.entries(received.manifest.modules).map(([module, m]) => [module, m.documents]),
        ),
        bytes: received.size,
        file: received.file,
        sourceProjectId: received.manifest.project.id,
        taskId: null,
        warning: null,
        createTime: now,
        updateTime: now,
      };
      await this.deps.repo.insert(row);
      return presentDbBackup(row, language);
    } catch (error) {
      await this.files.discard(context.projectId, received.file);
      throw error;
    }
  }

  /**
   * At start: what a stopped dump left half-written (its partial archive and spool) goes, and so do
   * whole archives never recorded. Journals of restores are the project backups'
   * recovery's (the same journals: a database restore's record is a project restore record).
   */
  async recover(): Promise<number> {
    const everything = this.deps.onlyProcess && !this.recovered;
    this.recovered = true;
    let removed = 0;
    const root = path.join(this.deps.dataDir, 'backups');
    for (const project of await readdir(root).catch((): string[] => [])) {
      const folder = this.files.folder(project);
      for (const name of await readdir(folder).catch((): string[] => [])) {
        const partial = name.startsWith('.partial-');
        if (!partial && (!name.endsWith('.zip') || (await this.deps.repo.find(project, name.slice(0, -4))))) continue;
        const file = this.files.archive(project, name);
        const changed = (await stat(file).catch(() => undefined))?.mtimeMs ?? 0;
        if (!everything && changed > this.deps.clock().getTime() - PARTIAL_STALE_MS) continue;
        // A partial dump may be a folder too (the data modules' spool of the archive writer): to the
        // trash (one rename; removed in the background).
        if (await moveToTrash(this.deps.dataDir, file, name.replace(/^\.+/, ''))) removed++;
      }
    }
    return removed;
  }

  // FTP (issue 13 §2): `<projectId>/<backupId>.zip` and its sidecar `<projectId>/<backupId>.json`.

  private async ftp(): Promise<FtpStorage> {
    const ftp = this.deps.ftp;
    if (!ftp || !(await ftp.enabled())) throw new AppError('dbBackupFtpUnavailable');
    return ftp;
  }

  private async ftpSidecar(ftp: FtpStorage, projectId: string, id: string): Promise<FtpSidecar> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) throw new AppError('backupNotFound');
    let text: string;
    try {
      text = await ftp.fetchText(`${projectId}/${id}.json`, SIDECAR_MAX_BYTES);
    } catch (error) {
      if (error instanceof FtpStorageError && error.failure === 'notFound') throw new AppError('backupNotFound');
      throw ftpError(error);
    }
    const sidecar = parseSidecar(text);
    if (!sidecar) throw new AppError('backupNotFound');
    return sidecar;
  }

  /**
   * `GET db-backup/ftp`: what the FTP server holds for this project (each archive with its sidecar);
   * with FTP storage not configured, nothing (`configured: false`), which is no error.
   */
  async ftpList(context: BackupContext): Promise<{ items: FtpBackupView[]; configured: boolean }> {
    const ftp = this.deps.ftp;
    if (!ftp || !(await ftp.enabled())) return { items: [], configured: false };
    let files: Awaited<ReturnType<FtpStorage['list']>>;
    try {
      files = await ftp.list(context.projectId);
    } catch (error) {
      throw ftpError(error);
    }
    const archives = new Map(files.filter((f) => f.name.endsWith('.zip')).map((f) => [f.name.slice(0, -4), f]));
    const items: FtpBackupView[] = [];
    for (const file of files) {
      if (!file.name.endsWith('.json')) continue;
      const id = file.name.slice(0, -5);
      const archive = archives.get(id);
      if (!archive) continue;
      const sidecar = await this.ftpSidecar(ftp, context.projectId, id).catch(() => undefined);
      if (!sidecar) continue;
      items.push({
        id,
        name: sidecar.name,
        item: sidecar.item,
        uploadTime: (archive.modifiedAt ?? new Date(sidecar.createdAt)).toISOString(),
        fileSize: toWholeMb(archive.size),
      });
    }
    return { items: items.sort((a, b) => b.uploadTime.localeCompare(a.uploadTime)), configured: true };
  }

  async ftpRemove(context: BackupContext, id: string): Promise<void> {
    const ftp = await this.ftp();
    await this.ftpSidecar(ftp, context.projectId, id);
    try {
      await ftp.remove(`${context.projectId}/${id}.zip`);
      await ftp.remove(`${context.projectId}/${id}.json`);
    } catch (error) {
      throw ftpError(error);
    }
  }

  /** `GET rest/db-backup/ftp/download/{id}`: fetched into a temporary file, verified, then sent (with a code: encrypted). */
  async ftpDownload(context: BackupContext, id: string, password: string | undefined) {
    const ftp = await this.ftp();
    const sidecar = await this.ftpSidecar(ftp, context.projectId, id);
    const local = await this.ftpFetch(ftp, context.projectId, id, sidecar);
    const file = await this.deps.backups.archiveStream(
      local,
      `${sidecar.name || DB_BACKUP_DEFAULT_FILE}.zip`,
      password,
    );
    const remove = () => void rm(local, { force: true });
    file.stream.once('close', remove);
    file.stream.once('error', remove);
    return file;
  }

  /** Streams an FTP archive down to a temporary file and checks its SHA-256 against the sidecar. */
  private async ftpFetch(ftp: FtpStorage, projectId: string, id: string, sidecar: FtpSidecar): Promise<string> {
    const folder = this.files.folder(projectId);
    await mkdir(folder, { recursive: true });
    const local = this.files.partial(projectId, `ftp-${randomBytes(6).toString('hex')}`);
    try {
      await ftp.fetch(`${projectId}/${id}.zip`, local);
      if ((await sha256Of(local)) !== sidecar.sha256) {
        throw new AppError('backupArchiveInvalid', { params: { problem: 'backup.problem.hash', path: `${id}.zip` } });
      }
      return local;
    } catch (error) {
      await rm(local, { force: true });
      if (error instanceof AppError) throw error;
      if (error instanceof FtpStorageError && error.failure === 'notFound') throw new AppError('backupNotFound');
      throw ftpError(error);
    }
  }

  private async runDump(context: TaskContext, params: DumpParams): Promise<string> {
    const { task } = context;
    const projectId = projectOf(task);
    const ftp = this.deps.ftp && (await this.deps.ftp.enabled()) ? this.deps.ftp : undefined;
    const share = ftp ? 0.7 : 1;
    const began = performance.now();
    const row = await writeBackup(
      {
        id: task.id,
        projectId,
        projectName: await this.projectName(projectId),
        name: params.name,
        item: { fileServer: params.item.fileServer, html: params.item.html, mongodb: params.item.database },
        // The whole database: every collection, its time series included.
        modules: params.item.database ? [...COLLECTIONS] : [],
        excludedDirs: params.excludedDirs,
        safety: false,
        requester: task.requester,
      },
      { repo: this.deps.source, store: this.deps.store, files: this.files, now: this.deps.clock },
      {
        progress: (fraction) => context.progress(fraction * share),
        checkpoint: () => context.checkpoint(),
        log: (line) => context.log(line),
      },
    );
    this.deps.metrics?.backup('database', row.bytes, (performance.now() - began) / 1000);
    const done = translate('dbBackup.dumped', params.language);
    if (!ftp) return done;
    // The local backup stays whatever happens on the FTP server; a failed push is said in the log.
    try {
      // The archive as a local file (a spool copy when it is kept in object storage).
      await this.files.openLocal(projectId, row.file ?? `${row.id}.zip`, async (file) => {
        const sidecar: FtpSidecar = {
          id: row.id,
          name: row.name,
          item: { fileServer: row.item.fileServer, html: row.item.html, database: row.item.mongodb },
          createdAt: row.createTime.toISOString(),
          size: row.bytes,
          sha256: await sha256Of(file),
          projectId,
        };
        await ftp.push(file, `${projectId}/${row.id}.zip`, {
          onProgress: (bytes) => context.progress(share + (1 - share) * Math.min(1, bytes / Math.max(1, row.bytes))),
        });
        await ftp.pushText(JSON.stringify(sidecar), `${projectId}/${row.id}.json`);
      });
      context.log(`FTP: ${row.id}.zip uploaded`);
      return done;
    } catch (error) {
      // The details (server, file, the server's words) in the log; the warning names the failure kind
      // as a message key, so that the list and the console say it in their language.
      const detail = error instanceof Error ? error.message : String(error);
      context.log(`FTP upload failed (the local backup is kept): ${detail}`);
      const warning = {
        key: 'dbBackup.ftpCopyFailed',
        params: { reason: error instanceof FtpStorageError ? error.key : 'ftp.error.other' },
      } satisfies { key: MessageKey; params: Record<string, string> };
      await this.deps.repo.setWarning(projectId, row.id, warning);
      return translateWithParams(warning.key, params.language, warning.params);
    }
  }

  private async runRestore(context: TaskContext, params: RestoreParams): Promise<string> {
    const { task } = context;
    const projectId = projectOf(task);
    this.deps.restoringProjects.enter(projectId);
    const began = performance.now();
    let fetched: string | undefined;
    try {
      let open: () => Promise<ArchiveReader>;
      let size: number;
      let name: string;
      const openFile = (file: string) => this.deps.backups.openFile(file);
      if (params.from === 'ftp') {
        const ftp = this.deps.ftp;
        if (!ftp || !(await ftp.enabled())) throw new TaskError(translate('dbBackup.ftpUnavailable', params.language));
        const sidecar = await this.ftpSidecar(ftp, projectId, params.backupId).catch((error: unknown) => {
          throw new TaskError(taskText(error, params.language));
        });
        fetched = await this.ftpFetch(ftp, projectId, params.backupId, sidecar).catch((error: unknown) => {
          throw new TaskError(taskText(error, params.language));
        });
        const local = fetched;
        open = () => openFile(local);
        size = (await stat(local)).size;
        name = sidecar.name;
      } else {
        const record = await this.deps.repo.find(projectId, params.backupId);
        if (!record) throw new TaskError(translate('backup.notFound', params.language));
        open = () => this.files.openLocal(projectId, record.file, openFile);
        size = record.bytes;
        name = record.name;
      }
      context.progress(0.05);
      const reader = await open().catch((error: unknown) => {
        throw new TaskError(taskText(error, params.language));
      });
      try {
        const done = await this.restoreFrom(context, reader, params, name);
        this.deps.metrics?.restore('database', size, (performance.now() - began) / 1000);
        return done;
      } finally {
        await reader.close();
      }
    } finally {
      if (fetched) await rm(fetched, { force: true });
      this.deps.restoringProjects.leave(projectId);
    }
  }

  private async restoreFrom(context: TaskContext, reader: ArchiveReader, params: RestoreParams, name: string) {
    const projectId = projectOf(context.task);
    await restoreArchive(
      context,
      reader,
      {
        projectId,
        language: params.language,
        verify: [0.05, 0.35],
        plan: (manifest) => {
          const held = dumpItemOf(manifest);
          if (!held.whole) throw new TaskError(translate('dbBackup.notWhole', params.language));
          const missing = DB_BACKUP_KINDS.filter((kind) => params.item[kind] && !held[kind]);
          if (missing.length > 0) {
            throw new TaskError(translate('backup.partMissing', params.language, { parts: missing.join(', ') }));
          }
          // The project's restore record: its 'reduction' list shows the database restores too.
          return {
            rules: params.item.database ? WHOLE_DATABASE : {},
            kinds: (['fileServer', 'html'] as const).filter((kind) => params.item[kind]),
            record: {
              name: [...name].slice(0, BACKUP_LIMITS.nameMax).join(''),
              item: { fileServer: params.item.fileServer, html: params.item.html, mongodb: params.item.database },
              bytes: 0,
              restoreFile: params.backupId,
            },
          };
        },
      },
      { repo: this.deps.backupRepo, store: this.deps.store, journals: this.journals, clock: this.deps.clock },
    );
    return translate('dbBackup.restored', params.language);
  }

  private projectName(projectId: string): Promise<string> {
    return this.deps.backups.projectName(projectId);
  }
}

/** The sidecar of an FTP archive: what the list shows without downloading it, and its hash. */
interface FtpSidecar {
  id: string;
  name: string;
  item: DbBackupItem;
  createdAt: string;
  size: number;
  sha256: string;
  projectId: string;
}

function parseSidecar(text: string): FtpSidecar | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (
      !isPlainObject(value) ||
      typeof value.name !== 'string' ||
      typeof value.sha256 !== 'string' ||
      typeof value.createdAt !== 'string' ||
      !isPlainObject(value.item)
    ) {
      return undefined;
    }
    const { item } = value;
    return {
      id: String(value.id ?? ''),
      name: value.name.slice(0, BACKUP_LIMITS.nameMax),
      item: { fileServer: item.fileServer === true, html: item.html === true, database: item.database === true },
      createdAt: value.createdAt,
      size: Number(value.size ?? 0),
      sha256: value.sha256,
      projectId: String(value.projectId ?? ''),
    };
  } catch {
    return undefined;
  }
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
}

/** An FTP failure as an answer: 502, its sentence (which names the server and the file, never the password). */
function ftpError(error: unknown): unknown {
  if (error instanceof FtpStorageError) {
    if (error.failure === 'notConfigured') return new AppError('dbBackupFtpUnavailable');
    return new AppError('dbBackupFtpFailed', { params: { reason: error.key } });
  }
  return error;
}

/** What a job's log says of an error met before the restore began. */
function taskText(error: unknown, language: Language): string {
  if (error instanceof AppError) {
    const params = Object.fromEntries(
      Object.entries(error.options.params ?? {}).map(([key, value]) => [
        key,
        typeof value === 'string' && isMessageKey(value) ? translate(value, language) : value,
      ]),
    );
    return translate(error.options.message ?? ERRORS[error.code].message, language, params);
  }
  if (error instanceof FtpStorageError) {
    return translate('dbBackup.ftpFailed', language, { reason: translate(error.key, language) });
  }
  return String(error);
}
