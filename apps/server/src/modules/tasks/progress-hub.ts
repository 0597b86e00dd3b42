import type { Language } from '@gantry/shared';
import { canSeeTask } from '../../policy/policy.js';
import type { UserRow } from '../users/user.repository.js';
import { presentTask, type TaskView } from './task.presenter.js';
import type { TaskRepository, TaskWithOwner } from './task.repository.js';

/** The progress channel's subscription (backups-data-designer.md §4, websocket channel). */
export const PROGRESS_SUBSCRIPTION = 'historycomputed';
/** The key of platform tasks (no project). */
export const NO_PROJECT_KEY = 'default';

export interface Subscriber {
  user: UserRow;
  /** The language of the socket's request: the engine's own outcomes are sent in it. */
  language: Language;
  /** Only this project's tasks (the socket's project, checked by the project gate); all the user may see otherwise. */
  projectId: string | undefined;
  send(message: string): void;
}

/** project id (or `default`) → request id → task. */
export type ProgressMessage = {
  name: typeof PROGRESS_SUBSCRIPTION;
  data: Record<string, Record<string, TaskView>>;
};

/**
 * Fans task progress out to websocket subscribers. Progress goes through the database (design D3):
 * while anybody listens, the hub reads the running tasks and those changed since its last look, once
 * per `tickMs`, whichever process runs them, and sends each subscriber what it may see. So a running
 * task's progress reaches its watchers at least once per tick, and two server processes on one
 * PostgreSQL need nothing more than the table they share. The task engine of this process also
 * nudges the hub each time it writes a task row (`nudge`): its tasks' start, progress (every
 * `reportMs`) and end go out at once, so even a task shorter than a tick shows running, then ended.
 */
export class ProgressHub {
  private readonly subscribers = new Set<Subscriber>();
  private timer: NodeJS.Timeout | undefined;
  private lastLook = new Date(0);
  private looking = false;
  /** A look was asked for while one ran, or is scheduled: one more look then. */
  private again = false;
  private scheduled = false;

  constructor(
    private readonly repo: Pick<TaskRepository, 'active'>,
    private readonly clock: () => Date,
    private readonly tickMs = 1_000,
    /** Ended tasks are sent for this long after their last change, so no watcher misses the end. */
    private readonly graceMs = 3_000,
  ) {}

  subscribe(subscriber: Subscriber): () => void {
    this.subscribers.add(subscriber);
    if (!this.timer) {
      this.lastLook = new Date(this.clock().getTime() - this.graceMs);
      this.timer = setInterval(() => void this.tick(), this.tickMs);
      this.timer.unref();
    }
    // The newcomer hears of running tasks (and those just ended) now, not at the next tick.
    this.nudge();
    return () => {
      this.subscribers.delete(subscriber);
      if (this.subscribers.size === 0) this.close();
    };
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Looks now rather than at the next tick: a task engine of this process wrote a task row (claimed,
   * progress, ended). Looks that pile up become one; nothing happens without subscribers.
   */
  nudge(): void {
    if (this.subscribers.size === 0) return;
    if (this.looking) {
      this.again = true;
      return;
    }
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.tick();
    });
  }

  async tick(): Promise<void> {
    if (this.looking) {
      this.again = true;
      return;
    }
    this.looking = true;
    try {
      const now = this.clock();
      const rows = await this.repo.active(new Date(this.lastLook.getTime() - this.graceMs));
      this.lastLook = now;
      for (const subscriber of this.subscribers) {
        const message = progressFor(subscriber, rows);
        if (message) subscriber.send(JSON.stringify(message));
      }
    } catch {
      // The next tick tries again; a database that is down shows in /readyz, not here.
    } finally {
      this.looking = false;
      if (this.again) {
        this.again = false;
        this.nudge();
      }
    }
  }
}

function progressFor(subscriber: Subscriber, rows: TaskWithOwner[]): ProgressMessage | undefined {
  const data: ProgressMessage['data'] = {};
  let any = false;
  for (const row of rows) {
    if (!canSeeTask(subscriber.user, row)) continue;
    if (subscriber.projectId !== undefined && row.projectId !== subscriber.projectId) continue;
    const key = row.projectId ?? NO_PROJECT_KEY;
    data[key] ??= {};
    data[key][row.requestId] = presentTask(row, subscriber.language);
    any = true;
  }
  return any ? { name: PROGRESS_SUBSCRIPTION, data } : undefined;
}
