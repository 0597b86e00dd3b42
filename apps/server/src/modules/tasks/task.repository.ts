import { type MessageKey, type TaskOutcome, TaskState } from '@gantry/shared';
import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { projects, tasks } from '../../db/schema.js';
import type { ListQuery, ResourceDef } from '../../lib/list-query/list-query.js';

export type TaskRow = typeof tasks.$inferSelect;
export type TaskStatus = TaskRow['status'];

/** The task manager's list (`proxy/core/taskmanager?query=`). */
export const TASK_RESOURCE: ResourceDef = {
  name: 'task',
  id: 'id',
  fields: {
    id: { sql: tasks.id, type: 'string', sort: true },
    type: { sql: tasks.type, type: 'string' },
    status: { sql: tasks.status, type: 'string' },
    progress: { sql: tasks.progress, type: 'number' },
    startTime: { sql: tasks.startTime, type: 'date', sort: true },
    endTime: { sql: tasks.endTime, type: 'date' },
    requestId: { sql: tasks.requestId, type: 'string' },
    projectId: { sql: tasks.projectId, type: 'string' },
  },
  defaultSort: { startTime: -1 },
  defaultLimit: 15,
  maxLimit: 1_000,
};

/** A task with its project's owner (undefined for platform tasks), as visibility needs it. */
export type TaskWithOwner = TaskRow & { ownerId: string | null };

const withOwner = { task: tasks, ownerId: projects.userId };

/** All SQL of tasks. */
export class TaskRepository {
  constructor(private readonly db: Database) {}

  /** Undefined when the id is taken. */
  async insert(row: TaskRow): Promise<TaskRow | undefined> {
    const [inserted] = await this.db.insert(tasks).values(row).onConflictDoNothing().returning();
    return inserted;
  }

  /** The newest task of a type. */
  async latest(type: string): Promise<TaskRow | undefined> {
    const [row] = await this.db
      .select()
      .from(tasks)
      .where(eq(tasks.type, type))
      .orderBy(desc(tasks.startTime))
      .limit(1);
    return row;
  }

  async find(id: string): Promise<TaskWithOwner | undefined> {
    const [row] = await this.db
      .select(withOwner)
      .from(tasks)
      .leftJoin(projects, eq(projects.id, tasks.projectId))
      .where(eq(tasks.id, id));
    return row && { ...row.task, ownerId: row.ownerId };
  }

  list(scope: SQL | undefined, query: ListQuery): Promise<TaskRow[]> {
    return this.db
      .select()
      .from(tasks)
      .where(and(scope, query.where))
      .orderBy(...query.orderBy)
      .limit(query.limit)
      .offset(query.offset);
  }

  /**
   * Takes up to `limit` waiting tasks of the given types for `runner`. `SKIP LOCKED`: two processes
   * on one PostgreSQL never take the same task.
   */
  async claim(runner: string, types: string[], limit: number, now: Date): Promise<TaskRow[]> {
    if (limit <= 0 || types.length === 0) return [];
    const waiting = this.db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.status, TaskState.Ongoing), isNull(tasks.runner), inArray(tasks.type, types)))
      .orderBy(tasks.startTime)
      .limit(limit)
      .for('update', { skipLocked: true });
    return this.db
      .update(tasks)
      .set({ runner, heartbeatAt: now, updatedAt: now })
      .where(inArray(tasks.id, waiting))
      .returning();
  }

  /** Writes a running task's progress and heartbeat; answers whether a pause was asked for. */
  async report(id: string, runner: string, progress: number, now: Date): Promise<boolean> {
    const [row] = await this.db
      .update(tasks)
      .set({ progress, heartbeatAt: now, updatedAt: now })
      .where(and(eq(tasks.id, id), eq(tasks.runner, runner), eq(tasks.status, TaskState.Ongoing)))
      .returning({ pauseRequested: tasks.pauseRequested });
    return row?.pauseRequested ?? false;
  }

  async finish(
    id: string,
    runner: string,
    outcome: { status: TaskOutcome; message: string; progress?: number; log: string },
    now: Date,
  ): Promise<void> {
    await this.db
      .update(tasks)
      .set({
        status: outcome.status,
        message: outcome.message,
        log: outcome.log,
        ...(outcome.progress === undefined ? {} : { progress: outcome.progress }),
        endTime: now,
        updatedAt: now,
      })
      .where(and(eq(tasks.id, id), eq(tasks.runner, runner), eq(tasks.status, TaskState.Ongoing)));
  }

  /**
   * Asks a task to pause: a waiting one pauses at once, a running one at its next safe point.
   * Answers the task as it is now, or undefined when it had ended already.
   */
  async requestPause(id: string, now: Date): Promise<TaskRow | undefined> {
    const [waiting] = await this.db
      .update(tasks)
      .set({
        status: TaskState.Paused,
        pauseRequested: true,
        message: 'task.pausedBeforeStart' satisfies MessageKey,
        endTime: now,
        updatedAt: now,
      })
      .where(and(eq(tasks.id, id), eq(tasks.status, TaskState.Ongoing), isNull(tasks.runner)))
      .returning();
    if (waiting) return waiting;
    const [running] = await this.db
      .update(tasks)
      .set({ pauseRequested: true, updatedAt: now })
      .where(and(eq(tasks.id, id), eq(tasks.status, TaskState.Ongoing)))
      .returning();
    return running;
  }

  /**
   * Whether a start has tasks to look at: one waiting to be claimed, or one `failOrphans` may fail
   * (false on a server whose tasks all ended), for the start's one recovery statement.
   */
  ongoingExists(): SQL {
    return sql`exists (select 1 from ${tasks} where ${tasks.status} = ${TaskState.Ongoing})`;
  }

  /**
   * Fails the tasks whose runner is gone: any runner but `alive` when this process is the only one
   * (the embedded engine), else those whose heartbeat is older than `staleBefore`.
   */
  async failOrphans(options: { alive: string; onlyProcess: boolean; staleBefore: Date; now: Date; message: string }) {
    const gone = options.onlyProcess
      ? and(isNotNull(tasks.runner), ne(tasks.runner, options.alive))
      : and(isNotNull(tasks.runner), ne(tasks.runner, options.alive), lt(tasks.heartbeatAt, options.staleBefore));
    return this.db
      .update(tasks)
      .set({ status: TaskState.Failed, message: options.message, endTime: options.now, updatedAt: options.now })
      .where(and(eq(tasks.status, TaskState.Ongoing), gone))
      .returning({ id: tasks.id });
  }

  /** Tasks running now, or changed since `since`, with their project's owner: what the progress hub sends. */
  async active(since: Date): Promise<TaskWithOwner[]> {
    const rows = await this.db
      .select(withOwner)
      .from(tasks)
      .leftJoin(projects, eq(projects.id, tasks.projectId))
      .where(or(eq(tasks.status, TaskState.Ongoing), gt(tasks.updatedAt, since)))
      .orderBy(tasks.startTime)
      .limit(1_000);
    return rows.map((row) => ({ ...row.task, ownerId: row.ownerId }));
  }
}
