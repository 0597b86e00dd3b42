import { DB_BACKUP_TASK_RESTORE } from '@gantry/shared';
import { AppError } from '../../lib/app-error.js';
import { ReadCache } from '../../lib/read-cache.js';
import type { Action } from '../../policy/policy.js';
import type { DbBackupRepository } from './db-backup.repository.js';

/**
 * The calls a project refuses while its database is being restored (issue 13 §1): its data
 * (documents, media), its project backups, and database backup changes. Reading the job, the lists,
 * the sizes and downloading stored archives go on (the console polls the job meanwhile).
 */
const REFUSED_WHILE_RESTORING: ReadonlySet<Action> = new Set<Action>([
  'project.data.read',
  'project.data.write',
  'backup.read',
  'backup.write',
  'backup.delete',
  'dbBackup.write',
  'dbBackup.delete',
]);

/** How long "no restore running" seen in the database is trusted (a restore started by another process). */
const NOT_RESTORING_TRUST_MS = 1_000;
const NOT_RESTORING_KEPT = 10_000;

/**
 * Which projects are being restored: a database restore running here (entered when the job starts,
 * left in its `finally`), or a restore job `ongoing` in the database (waiting, or running in another
 * process). A server stopped mid-restore leaves no lock: its job is failed at the next start (task
 * engine), and the in-memory set starts empty.
 */
export class RestoringProjects {
  private readonly here = new Map<string, number>();
  /** Projects seen with no restore job (a restore job found is never kept: it is asked again). */
  private readonly notRestoring: ReadCache<false>;

  constructor(
    private readonly repo: Pick<DbBackupRepository, 'running'>,
    now: () => number = Date.now,
  ) {
    this.notRestoring = new ReadCache(NOT_RESTORING_TRUST_MS, NOT_RESTORING_KEPT, now);
  }

  enter(projectId: string): void {
    this.here.set(projectId, (this.here.get(projectId) ?? 0) + 1);
    this.notRestoring.forget(projectId);
  }

  leave(projectId: string): void {
    const count = (this.here.get(projectId) ?? 1) - 1;
    if (count > 0) this.here.set(projectId, count);
    else this.here.delete(projectId);
    this.notRestoring.forget(projectId);
  }

  /** Forgets what was seen of a project (a restore job was just queued). */
  forget(projectId: string): void {
    this.notRestoring.forget(projectId);
  }

  async restoring(projectId: string): Promise<boolean> {
    if (this.here.has(projectId)) return true;
    const seen = await this.notRestoring.get(projectId, async () =>
      (await this.repo.running(projectId, [DB_BACKUP_TASK_RESTORE])) ? undefined : false,
    );
    return seen === undefined;
  }

  /** Throws `projectRestoring` (423) while the project is being restored. */
  async assertOpen(projectId: string): Promise<void> {
    if (await this.restoring(projectId)) throw new AppError('projectRestoring');
  }
}

/** Whether a call of `action` is refused while its project's database restore runs (the project gate asks). */
export function refusedWhileRestoring(action: Action): boolean {
  return REFUSED_WHILE_RESTORING.has(action);
}
