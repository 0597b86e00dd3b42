import { randomBytes } from 'node:crypto';
import {
  type AuditAction,
  type BackupFailureView,
  type DbBackupCycleCreateBody,
  type DbBackupCycleUpdateBody,
  type DbBackupCycleView,
  type Language,
  PERIODIC_BACKUP_LIMITS,
} from '@gantry/shared';
import { Cron } from 'croner';
import type { Database } from '../../db/database.js';
import { AppError } from '../../lib/app-error.js';
import type { Clock } from '../../lib/clock.js';
import { projectScope } from '../../policy/policy.js';
import type { Actor, AuditService } from '../audit/audit.service.js';
import type { BackupContext } from '../backups/backup.service.js';
import type { DbBackupService } from '../db-backups/db-backup.service.js';
import type { UserRow } from '../users/user.repository.js';
import { type CycleRepository, type CycleRow, type CycleWithTask, runPrefix } from './cycle.repository.js';

const HOUR_MS = 3_600_000;
/** Cycles started or settled per look (the rest at the next one, a few seconds later). */
const BATCH = 50;
/** Failures the dashboard lists. */
const DASHBOARD_FAILURES = 10;
/** How often the scheduler looks for due cycles and ended runs (croner pattern, seconds first). */
export const CYCLE_TICK_PATTERN = '*/15 * * * * *';
/** What a run whose task no longer exists is recorded as. */
const RUN_GONE = 'the backup job no longer exists';

export interface CycleServiceDeps {
  db: Database;
  repo: CycleRepository;
  dbBackups: DbBackupService;
  audit: AuditService;
  clock: Clock;
  /** The language a run's messages are written in (the system language). */
  language: () => Promise<Language>;
  log: { warn(fields: object, message: string): void; info(fields: object, message: string): void };
}

/** The latest slot due at `now`: anchor + k·period (k ≥ 1), the one run a missed stretch gets. */
export function dueSlot(anchor: Date, hours: number, now: Date): Date {
  const period = hours * HOUR_MS;
  const k = Math.max(1, Math.floor((now.getTime() - anchor.getTime()) / period));
  return new Date(anchor.getTime() + k * period);
}

function present(row: CycleWithTask): DbBackupCycleView {
  // The latest run as it stands: its recorded outcome, or its task's when that ended and is not yet copied.
  let lastResult: DbBackupCycleView['lastResult'] = null;
  if (row.lastTaskId && row.lastStatus) {
    let status = row.lastStatus;
    let message = row.lastMessage ?? '';
    let endTime = row.lastEndedAt;
    if (status === 'running' && row.taskStatus && row.taskStatus !== 'ongoing') {
      status = row.taskStatus === 'success' ? 'success' : 'failed';
      message = row.taskMessage ?? '';
      endTime = row.taskEnd;
    }
    lastResult = { status, message, endTime: endTime?.toISOString() ?? null, jobId: row.lastTaskId };
  }
  return {
    id: row.id,
    name: row.name,
    hours: row.hours,
    enabled: row.enabled,
    keep: row.keep,
    nextRunTime: row.enabled ? row.nextRunAt.toISOString() : null,
    lastRunTime: row.lastRunAt?.toISOString() ?? null,
    lastResult,
    createTime: row.createTime.toISOString(),
    updateTime: row.updateTime.toISOString(),
  };
}

const noTask = { taskStatus: null, taskMessage: null, taskEnd: null };

/**
 * Periodic database backups (issue 13 §3): cycles per project (name, every N hours, enabled, keep the
 * last K). The scheduler (croner, every 15 s, and once at start) starts each due cycle's run as a dump
 * job whose id is its cycle and slot (`submitOnce`: one run per slot however many processes look),
 * copies each ended run's outcome to its cycle, and after a success removes that cycle's older
 * periodic dumps beyond K. A stretch missed while no server ran gets one run (the latest slot).
 */
export class CycleService {
  private cron: Cron | undefined;
  private ticking: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: CycleServiceDeps) {}

  async list(context: BackupContext): Promise<DbBackupCycleView[]> {
    return (await this.deps.repo.list(context.projectId)).map(present);
  }

  async create(actor: Actor, context: BackupContext, body: DbBackupCycleCreateBody): Promise<DbBackupCycleView> {
    const { db, repo, clock } = this.deps;
    const now = clock();
    const row: CycleRow = {
      id: `c${randomBytes(8).toString('hex')}`,
      projectId: context.projectId,
      name: body.name,
      hours: body.hours,
      enabled: body.enabled,
      keep: body.keep,
      anchorAt: now,
      nextRunAt: new Date(now.getTime() + body.hours * HOUR_MS),
      lastTaskId: null,
      lastRunAt: null,
      lastStatus: null,
      lastMessage: null,
      lastEndedAt: null,
      createTime: now,
      updateTime: now,
    };
    await db.transaction(async (tx) => {
      if ((await repo.lockedCount(context.projectId, tx)) >= PERIODIC_BACKUP_LIMITS.cyclesMax) {
        throw new AppError('dbBackupCycleTooMany', { params: { max: PERIODIC_BACKUP_LIMITS.cyclesMax } });
      }
      await repo.insert(row, tx);
      await this.audited(actor, context, 'dbBackupCycle.create', row.id, { ...body }, tx);
    });
    return present({ ...row, ...noTask });
  }

  /** A new period, or enabling, restarts the count from now (the anchor); a name or keep change does not. */
  async update(
    actor: Actor,
    context: BackupContext,
    id: string,
    body: DbBackupCycleUpdateBody,
  ): Promise<DbBackupCycleView> {
    const { db, repo, clock } = this.deps;
    const now = clock();
    await db.transaction(async (tx) => {
      const current = await repo.find(context.projectId, id, tx);
      if (!current) throw new AppError('dbBackupCycleNotFound');
      const hours = body.hours ?? current.hours;
      const enabled = body.enabled ?? current.enabled;
      const restart = hours !== current.hours || (enabled && !current.enabled);
      const changed = await repo.update(
        context.projectId,
        id,
        {
          name: body.name ?? current.name,
          hours,
          enabled,
          keep: body.keep ?? current.keep,
          ...(restart ? { anchorAt: now, nextRunAt: new Date(now.getTime() + hours * HOUR_MS) } : {}),
          updateTime: now,
        },
        tx,
      );
      if (!changed) throw new AppError('dbBackupCycleNotFound');
      await this.audited(actor, context, 'dbBackupCycle.update', id, { ...body }, tx);
    });
    const row = (await repo.list(context.projectId)).find((cycle) => cycle.id === id);
    if (!row) throw new AppError('dbBackupCycleNotFound');
    return present(row);
  }

  /** The cycle goes; the dumps it made stay (they are listed, and deleted, like any other). */
  async remove(actor: Actor, context: BackupContext, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const row = await this.deps.repo.remove(context.projectId, id, tx);
      if (!row) throw new AppError('dbBackupCycleNotFound');
      await this.audited(actor, context, 'dbBackupCycle.delete', id, { name: row.name }, tx);
    });
  }

  /** Cycles whose latest run failed, in the projects the user may see (the dashboard's). */
  async failures(user: UserRow): Promise<BackupFailureView[]> {
    const rows = await this.deps.repo.failures(projectScope(user), DASHBOARD_FAILURES);
    return rows.map((row) => ({
      projectId: row.projectId,
      projectName: row.projectName,
      cycleId: row.cycleId,
      cycleName: row.cycleName,
      time: (row.time ?? new Date(0)).toISOString(),
      message: row.message ?? '',
    }));
  }

  private async audited(
    actor: Actor,
    context: BackupContext,
    action: AuditAction,
    cycleId: string,
    detail: Record<string, unknown>,
    tx: Database,
  ): Promise<void> {
    const owner = await this.deps.repo.ownerOf(context.projectId, tx);
    await this.deps.audit.record(
      actor,
      { action, objectType: 'project', objectId: context.projectId, tenantId: owner, detail: { cycleId, ...detail } },
      tx,
    );
  }

  /** Every 15 s, and once now (a run missed while no server ran). */
  schedule(): void {
    this.cron = new Cron(CYCLE_TICK_PATTERN, { protect: true, unref: true }, () => this.runTick());
    this.runTick();
  }

  stop(): void {
    this.cron?.stop();
  }

  private runTick(): void {
    this.tick().catch((error: unknown) => this.deps.log.warn({ err: error }, 'periodic backups: a look failed'));
  }

  /** One look: ended runs settled (and pruned), then due cycles started. Looks run one after another. */
  tick(): Promise<{ settled: number; started: number }> {
    const next = this.ticking.then(
      () => this.look(),
      () => this.look(),
    );
    this.ticking = next.catch(() => undefined);
    return next;
  }

  private async look(): Promise<{ settled: number; started: number }> {
    let settled = 0;
    for (const cycle of await this.deps.repo.unsettled(BATCH)) {
      if (await this.settle(cycle)) settled++;
    }
    let started = 0;
    const now = this.deps.clock();
    for (const cycle of await this.deps.repo.due(now, BATCH)) {
      if (await this.start(cycle, now)) started++;
    }
    return { settled, started };
  }

  private async start(cycle: CycleRow, now: Date): Promise<boolean> {
    const slot = dueSlot(cycle.anchorAt, cycle.hours, now);
    const taskId = `${runPrefix(cycle.id)}${slot.getTime()}`;
    // The job first (named after the slot: once, whoever submits it), then the cycle moves on; a
    // process stopped between the two leaves the cycle due, and the next look records the same job.
    const submitted = await this.deps.dbBackups.submitDumpOnce(
      taskId,
      cycle.projectId,
      'system',
      cycle.name,
      await this.deps.language(),
    );
    // Whoever records it (the same values: the slot's job, the next slot), the cycle moves on once.
    await this.deps.repo.started(cycle, {
      taskId,
      at: submitted?.startTime ?? now,
      nextRunAt: new Date(slot.getTime() + cycle.hours * HOUR_MS),
    });
    if (submitted)
      this.deps.log.info({ cycle: cycle.id, project: cycle.projectId, task: taskId }, 'periodic backup started');
    return submitted !== undefined;
  }

  private async settle(cycle: CycleWithTask): Promise<boolean> {
    const taskId = cycle.lastTaskId;
    if (!taskId) return false;
    const status = cycle.taskStatus === 'success' ? 'success' : 'failed';
    const message = cycle.taskStatus === null ? RUN_GONE : (cycle.taskMessage ?? '');
    const endedAt = cycle.taskEnd ?? this.deps.clock();
    if (!(await this.deps.repo.settled(cycle.id, taskId, { status, message, endedAt }))) return false;
    if (status === 'failed') {
      this.deps.log.warn(
        { cycle: cycle.id, project: cycle.projectId, task: taskId, message },
        'periodic backup failed',
      );
      return true;
    }
    // Only this cycle's periodic dumps, the newest K kept; manual and uploaded ones are never touched.
    for (const id of await this.deps.repo.beyond(cycle.projectId, cycle.id, cycle.keep)) {
      await this.deps.dbBackups
        .remove({ projectId: cycle.projectId, projectName: '', enabled: true }, id)
        .catch((error: unknown) => this.deps.log.warn({ err: error, backup: id }, 'periodic backup: pruning failed'));
    }
    return true;
  }
}
