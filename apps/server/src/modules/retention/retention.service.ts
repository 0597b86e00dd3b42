import { LANGUAGES, type Language, retentionDays, translate } from '@gantry/shared';
import { z } from 'zod';
import type { Clock } from '../../lib/clock.js';
import type { SettingsService } from '../settings/settings.service.js';
import { type TaskEngine, type TaskHandler, taskType } from '../tasks/task.engine.js';
import { presentTask, type TaskView } from '../tasks/task.presenter.js';
import type { TaskRepository } from '../tasks/task.repository.js';
import type { RetentionRepository } from './retention.repository.js';

export const RETENTION_TASK = 'data.retention';
/**
 * The clean-up reads the policy from the settings when it runs; its one parameter is the language of
 * its result: the caller's for a run asked for, the system language (settings) for the hourly one.
 */
export const retentionTask = taskType(RETENTION_TASK, z.object({ language: z.enum(LANGUAGES).optional() }).strict());

/** Records deleted per statement: small, so other work interleaves and no statement runs long. */
const BATCH = 1_000;
/** Progress is measured against at most this many records counted up front. */
const COUNT_CAP = 1_000_000;
const HOUR_MS = 3_600_000;

/**
 * Time-series retention (console.md settings `bbs_realtime`): data records stored longer ago than
 * the policy (year 365 days, month 30, week 7, day 1) are deleted, in batches, by a platform task that
 * runs once an hour (named after the hour: once, whichever process submits it) and on demand.
 */
export class RetentionService {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly repo: RetentionRepository,
    private readonly tasks: TaskRepository,
    private readonly engine: TaskEngine,
    private readonly settings: SettingsService,
    private readonly clock: Clock,
    /** A pause between batches, so a large clean-up leaves the database to requests now and then. */
    private readonly pauseMs = 5,
  ) {
    engine.register(retentionTask, this.run);
  }

  /** Hourly runs; the first a minute after start. */
  schedule(): void {
    const hourly = () => void this.submitForThisHour().catch(() => undefined);
    const first = setTimeout(() => {
      hourly();
      this.timer = setInterval(hourly, HOUR_MS);
      this.timer.unref();
    }, 60_000);
    first.unref();
    this.timer = first;
  }

  stop(): void {
    clearTimeout(this.timer);
    clearInterval(this.timer);
  }

  async submitForThisHour() {
    const { language } = await this.settings.get();
    const hour = this.clock().toISOString().slice(0, 13).replace(/[-T]/g, '');
    return this.engine.submitOnce(retentionTask, {
      id: `retention-${hour}`,
      projectId: null,
      requester: 'system',
      params: { language },
    });
  }

  /** A run now, asked for by the administrator. */
  async runNow(requester: string, language: Language): Promise<TaskView> {
    const task = await this.engine.submit(retentionTask, { projectId: null, requester, params: { language } });
    return presentTask(task, language);
  }

  async lastRun(language: Language): Promise<TaskView | null> {
    const task = await this.tasks.latest(RETENTION_TASK);
    return task ? presentTask(task, language) : null;
  }

  private readonly run: TaskHandler<{ language?: Language | undefined }> = async (context, params) => {
    const { retentionPolicy, auditRetention } = await this.settings.get();
    const days = retentionDays(retentionPolicy.count, retentionPolicy.unit);
    const cutoff = new Date(this.clock().getTime() - days * 86_400_000);
    const total = await this.repo.countOlderThan(cutoff, COUNT_CAP);
    let removed = 0;
    for (;;) {
      await context.checkpoint();
      const deleted = await this.repo.deleteOlderThan(cutoff, BATCH);
      removed += deleted;
      context.progress(total > 0 ? Math.min(0.99, removed / total) : 0.99);
      if (deleted < BATCH) break;
      await new Promise((resolve) => setTimeout(resolve, this.pauseMs));
    }
    context.log(`cutoff ${cutoff.toISOString()}, removed ${removed}`);
    const language = params.language ?? (await this.settings.get()).language;
    const records = { count: removed, cutoff: cutoff.toISOString() };
    if (!auditRetention) return translate('retention.removed', language, records);
    // The audit log's own retention (issue 34 §5), in the same run and the same small batches.
    const auditCutoff = new Date(
      this.clock().getTime() - retentionDays(auditRetention.count, auditRetention.unit) * 86_400_000,
    );
    let entries = 0;
    for (;;) {
      await context.checkpoint();
      const deleted = await this.repo.deleteAuditOlderThan(auditCutoff, BATCH);
      entries += deleted;
      if (deleted < BATCH) break;
      await new Promise((resolve) => setTimeout(resolve, this.pauseMs));
    }
    context.log(`audit cutoff ${auditCutoff.toISOString()}, removed ${entries}`);
    return translate('retention.removedWithAudit', language, {
      ...records,
      auditCount: entries,
      auditCutoff: auditCutoff.toISOString(),
    });
  };
}
