import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, statfs } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  BACKUP_LIMITS,
  type Language,
  PLATFORM_BACKUP_TASK,
  type PlatformBackupStatus,
  type PlatformBackupView,
  PlatformRestoreState,
  TaskState,
  translate,
} from '@gantry/shared';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/database.js';
import { queryRows } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import { ArchiveProblem } from '../../lib/archive/archive-problem.js';
import { ArchiveReader } from '../../lib/archive/archive-reader.js';
import type { Clock } from '../../lib/clock.js';
import type { FileStore } from '../../lib/file-store.js';
import type { Invalidation, InvalidationBus } from '../../lib/invalidation-bus.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import { type TaskContext, type TaskEngine, taskType } from '../tasks/task.engine.js';
import type { UserRow } from '../users/user.repository.js';
import { PLATFORM_LIMITS, verifyPlatformArchive } from './platform-archive.js';
import type { PlatformBackupRepository } from './platform-backup.repository.js';
import {
  type PlatformBackupDeps,
  PlatformRestoreRefused,
  restorePlatformBackup,
  writePlatformBackup,
} from './platform-backup-io.js';
import { PlatformMaintenance } from './platform-maintenance.js';

/** Disk space an upload always leaves free. */
const DISK_RESERVE = BACKUP_LIMITS.diskReserveBytes;
/** A platform backup's file name in `<data>/platform-backups/`: no path, no hidden or temporary file. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,120}\.zip$/;

export interface PlatformBackupServiceDeps {
  db: Database;
  dataDir: string;
  engine: 'pglite' | 'postgres';
  repo: PlatformBackupRepository;
  tasks: TaskEngine;
  bus: InvalidationBus;
  audit: AuditService;
  clock: Clock;
  verifyPassword: (userId: string, password: string) => Promise<boolean>;
  users: { findById(id: string): Promise<UserRow | undefined> };
  log: {
    info(fields: object, message: string): void;
    warn(fields: object, message: string): void;
    error(fields: object, message: string): void;
  };
  /** GANTRY_STORAGE=s3: the object store, whose files a platform backup holds and a restore replaces. */
  store?: FileStore | undefined;
}

/**
 * Platform backups from the settings area (issue 13 §4): made as a task into
 * `<data>/platform-backups/`, listed, downloaded, uploaded, deleted; a restore puts the whole server
 * in maintenance (every API call but the status answers 503 `platformRestoring`), with the task
 * engine quiet, replaces everything as `npm run restore` does, and empties every cache.
 */
/** The backup task: the address of who asked (for the audit entry it writes). */
const backupTask = taskType(PLATFORM_BACKUP_TASK, z.object({ ip: z.string() }));

export class PlatformBackupService {
  private state: PlatformBackupStatus = { state: PlatformRestoreState.Idle };
  /** A restore as every node sharing the database sees it. */
  private readonly maintenance: PlatformMaintenance;

  constructor(private readonly deps: PlatformBackupServiceDeps) {
    deps.tasks.register(backupTask, (context, params) => this.runBackup(context, params));
    this.maintenance = new PlatformMaintenance({
      bus: deps.bus,
      now: () => deps.clock().getTime(),
      tasks: deps.tasks,
      log: deps.log,
    });
  }

  /** What the bus delivers: another node's restore starting or ending. */
  apply(change: Invalidation): void {
    this.maintenance.apply(change);
  }

  get folder(): string {
    return path.join(this.deps.dataDir, 'platform-backups');
  }

  /** Whether a restore is under way, here or on another node (the maintenance guard refuses calls meanwhile). */
  get restoring(): boolean {
    return this.state.state === PlatformRestoreState.Restoring || this.maintenance.otherRestoringSince !== undefined;
  }

  /** This node's restore; while another node restores, that one. */
  status(): PlatformBackupStatus {
    const other = this.maintenance.otherRestoringSince;
    return other && this.state.state !== 'restoring' ? { state: 'restoring', startTime: other } : this.state;
  }

  private io(log: (line: string) => void): PlatformBackupDeps {
    const { db, dataDir, engine, repo, store } = this.deps;
    return { db, dataDir, engine, repo, log, store };
  }

  private fileOf(name: string): string {
    if (!FILE_NAME.test(name)) throw new AppError('platformBackupNotFound');
    return path.join(this.folder, name);
  }

  async list(): Promise<PlatformBackupView[]> {
    const entries = await readdir(this.folder, { withFileTypes: true }).catch(() => []);
    const found: PlatformBackupView[] = [];
    for (const entry of entries) {
      if (!entry.isFile() || !FILE_NAME.test(entry.name)) continue;
      const info = await stat(path.join(this.folder, entry.name)).catch(() => undefined);
      if (info) found.push({ name: entry.name, size: info.size, createTime: info.mtime.toISOString() });
    }
    return found.sort((a, b) => b.createTime.localeCompare(a.createTime));
  }

  async start(actor: Actor, requestId: string | undefined): Promise<string> {
    const task = await this.deps.tasks.submit(backupTask, {
      projectId: null,
      requester: actor.user.id,
      requestId,
      params: { ip: actor.ip },
    });
    return task.id;
  }

  private async runBackup(context: TaskContext, params: { ip: string }): Promise<string> {
    await mkdir(this.folder, { recursive: true });
    const stamp = this.deps.clock().toISOString().replace(/[:.]/g, '-');
    const name = `platform-${stamp}.zip`;
    const partial = path.join(this.folder, `.partial-${context.task.id}.zip`);
    await rm(partial, { force: true });
    const summary = await writePlatformBackup(
      this.io((line) => {
        context.log(line);
        context.progress(line.startsWith('tables:') ? 0.5 : line.startsWith('files:') ? 0.95 : 0.1);
      }),
      partial,
    );
    await rename(partial, path.join(this.folder, name));
    const user = await this.deps.users.findById(context.task.requester);
    const { ip } = params;
    if (user) {
      await this.deps.db.transaction((tx) =>
        this.deps.audit.record(
          { user, ip },
          { action: 'platform.backup', objectType: 'platform', objectId: name, detail: { bytes: summary.bytes } },
          tx,
        ),
      );
    }
    return name;
  }

  async download(name: string): Promise<{ stream: Readable; name: string; size: number }> {
    const file = this.fileOf(name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) throw new AppError('platformBackupNotFound');
    return { stream: createReadStream(file), name, size: info.size };
  }

  async remove(actor: Actor, name: string): Promise<void> {
    const file = this.fileOf(name);
    if (!(await stat(file).catch(() => undefined))) throw new AppError('platformBackupNotFound');
    await rm(file, { force: true });
    await this.deps.db.transaction((tx) =>
      this.deps.audit.record(actor, { action: 'platform.backup.delete', objectType: 'platform', objectId: name }, tx),
    );
  }

  /** Receives an uploaded platform backup, verifies all of it, and lists it under a free name like its own. */
  async upload(filename: string, source: Readable, language: Language): Promise<PlatformBackupView> {
    await mkdir(this.folder, { recursive: true });
    const temporary = path.join(this.folder, `.upload-${randomBytes(8).toString('hex')}.zip`);
    try {
      // Never fills the disk: the upload stops once it would leave less than DISK_RESERVE free.
      const free = await statfs(this.folder);
      const room = free.bavail * free.bsize - DISK_RESERVE;
      let received = 0;
      const bounded = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          received += chunk.length;
          done(
            received > room
              ? new AppError('backupTooLarge', { params: { max: Math.max(0, Math.floor(room / 1024 / 1024)) } })
              : null,
            chunk,
          );
        },
      });
      await pipeline(source, bounded, createWriteStream(temporary, { flags: 'wx', mode: 0o600 }));
      await this.check(temporary, language);
      const base = path
        .basename(filename)
        .replace(/\.zip$/i, '')
        .replace(/[^A-Za-z0-9._-]/g, '_')
        .replace(/^[._-]+/, '');
      const stem = (base || 'platform-upload').slice(0, 100);
      let name = `${stem}.zip`;
      for (let n = 2; await stat(path.join(this.folder, name)).catch(() => undefined); n++) name = `${stem}-${n}.zip`;
      await rename(temporary, path.join(this.folder, name));
      const info = await stat(path.join(this.folder, name));
      return { name, size: info.size, createTime: info.mtime.toISOString() };
    } finally {
      await rm(temporary, { force: true });
    }
  }

  private async check(file: string, language: Language): Promise<void> {
    let reader: ArchiveReader | undefined;
    try {
      reader = await ArchiveReader.open(file, undefined, { maxEntries: PLATFORM_LIMITS.entriesMax });
      await verifyPlatformArchive(reader, { knownTables: new Set(await this.deps.repo.tables(this.deps.db)) });
    } catch (error) {
      if (error instanceof ArchiveProblem) {
        throw new AppError('backupArchiveInvalid', {
          params: { problem: translate(error.messageKey, language, error.params) },
        });
      }
      throw error;
    } finally {
      await reader?.close();
    }
  }

  /**
   * Starts replacing the whole platform with backup `name` (the administrator's password confirms):
   * refused while tasks run; answers at once, the status tells the outcome.
   */
  async restore(actor: Actor, name: string, password: string): Promise<void> {
    const file = this.fileOf(name);
    if (!(await stat(file).catch(() => undefined))) throw new AppError('platformBackupNotFound');
    if (!(await this.deps.verifyPassword(actor.user.id, password))) throw new AppError('oldPasswordWrong');
    if (this.restoring) throw new AppError('platformRestoring');
    const [running] = await queryRows<{ n: number }>(
      this.deps.db,
      sql`SELECT count(*)::int AS n FROM tasks WHERE status = ${TaskState.Ongoing}`,
    );
    if ((running?.n ?? 0) > 0) throw new AppError('platformTasksRunning', { params: { count: running?.n ?? 0 } });
    const startTime = this.deps.clock().toISOString();
    this.state = { state: PlatformRestoreState.Restoring, startTime };
    void this.runRestore(actor, name, file, startTime);
  }

  private async runRestore(actor: Actor, name: string, file: string, startTime: string): Promise<void> {
    const lines: string[] = [];
    try {
      await this.maintenance.begin(startTime);
      await this.deps.tasks.quiesce();
      await restorePlatformBackup(
        this.io((line) => lines.push(line)),
        file,
        { id: actor.user.id, name: actor.user.name },
      );
      this.state = { state: PlatformRestoreState.Succeeded, startTime, endTime: this.deps.clock().toISOString() };
      this.deps.log.info({ name, steps: lines }, 'platform restored from a backup');
    } catch (error) {
      const problem =
        error instanceof ArchiveProblem
          ? translate(error.messageKey, 'en', error.params)
          : error instanceof PlatformRestoreRefused
            ? error.message
            : 'internal error: the server log has the details';
      if (!(error instanceof ArchiveProblem || error instanceof PlatformRestoreRefused)) {
        this.deps.log.error({ err: error }, 'platform restore failed');
      }
      this.deps.log.info(
        { name, steps: lines, reason: problem },
        'platform restore refused or failed; nothing changed',
      );
      this.state = {
        state: PlatformRestoreState.Failed,
        startTime,
        endTime: this.deps.clock().toISOString(),
        reason: problem,
      };
    } finally {
      // Sessions, settings and the licence changed under every cache: all of them are emptied.
      await this.deps.bus.publish({ kind: 'all' }).catch(() => {});
      await this.maintenance.end(startTime);
      await this.deps.tasks.resume();
    }
  }
}
