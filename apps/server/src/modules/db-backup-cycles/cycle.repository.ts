import { and, asc, desc, eq, isNotNull, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/database.js';
import { dbBackupCycles, dbBackups, projects, tasks } from '../../db/schema.js';

export type CycleRow = typeof dbBackupCycles.$inferSelect;
/** A cycle with its latest run's task as it is now (null: never ran, or the task is gone). */
export type CycleWithTask = CycleRow & { taskStatus: string | null; taskMessage: string | null; taskEnd: Date | null };

/** The task id prefix of a cycle's runs: `pc_<cycleId>_<slot ms>`; the dumps they made carry it. */
export const runPrefix = (cycleId: string) => `pc_${cycleId}_`;

const withTask = {
  cycle: dbBackupCycles,
  taskStatus: tasks.status,
  taskMessage: tasks.message,
  taskEnd: tasks.endTime,
};
const flat = (r: { cycle: CycleRow; taskStatus: string | null; taskMessage: string | null; taskEnd: Date | null }) => ({
  ...r.cycle,
  taskStatus: r.taskStatus,
  taskMessage: r.taskMessage,
  taskEnd: r.taskEnd,
});

/** All SQL of periodic backup cycles. Calls of a project are keyed by it (tenant isolation). */
export class CycleRepository {
  constructor(private readonly db: Database) {}

  async list(projectId: string): Promise<CycleWithTask[]> {
    const rows = await this.db
      .select(withTask)
      .from(dbBackupCycles)
      .leftJoin(tasks, eq(tasks.id, dbBackupCycles.lastTaskId))
      .where(eq(dbBackupCycles.projectId, projectId))
      .orderBy(asc(dbBackupCycles.createTime), asc(dbBackupCycles.id));
    return rows.map(flat);
  }

  async find(projectId: string, id: string, tx: Database = this.db): Promise<CycleRow | undefined> {
    const [row] = await tx
      .select()
      .from(dbBackupCycles)
      .where(and(eq(dbBackupCycles.projectId, projectId), eq(dbBackupCycles.id, id)));
    return row;
  }

  /** The project's row locked, then its cycle count: two creates cannot both pass the limit. */
  async lockedCount(projectId: string, tx: Database): Promise<number> {
    await tx.execute(sql`select id from ${projects} where id = ${projectId} for update`);
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(dbBackupCycles)
      .where(eq(dbBackupCycles.projectId, projectId));
    return row?.n ?? 0;
  }

  /** The project's owner (the tenant its audit entries belong to). */
  async ownerOf(projectId: string, tx: Database): Promise<string | null> {
    const [row] = await tx.select({ owner: projects.userId }).from(projects).where(eq(projects.id, projectId));
    return row?.owner ?? null;
  }

  async insert(row: CycleRow, tx: Database): Promise<void> {
    await tx.insert(dbBackupCycles).values(row);
  }

  async update(projectId: string, id: string, values: Partial<CycleRow>, tx: Database): Promise<CycleRow | undefined> {
    const [row] = await tx
      .update(dbBackupCycles)
      .set(values)
      .where(and(eq(dbBackupCycles.projectId, projectId), eq(dbBackupCycles.id, id)))
      .returning();
    return row;
  }

  async remove(projectId: string, id: string, tx: Database): Promise<CycleRow | undefined> {
    const [row] = await tx
      .delete(dbBackupCycles)
      .where(and(eq(dbBackupCycles.projectId, projectId), eq(dbBackupCycles.id, id)))
      .returning();
    return row;
  }

  /** Enabled cycles whose next run is due (every project: the scheduler's). */
  due(now: Date, limit: number): Promise<CycleRow[]> {
    return this.db
      .select()
      .from(dbBackupCycles)
      .where(and(eq(dbBackupCycles.enabled, true), lte(dbBackupCycles.nextRunAt, now)))
      .orderBy(asc(dbBackupCycles.nextRunAt))
      .limit(limit);
  }

  /**
   * Records a run started for a slot; only if the cycle still expects that slot (`nextRunAt` as read),
   * so a change made meanwhile, or another process that recorded it first, wins.
   */
  async started(cycle: CycleRow, run: { taskId: string; at: Date; nextRunAt: Date }): Promise<boolean> {
    const rows = await this.db
      .update(dbBackupCycles)
      .set({
        nextRunAt: run.nextRunAt,
        lastTaskId: run.taskId,
        lastRunAt: run.at,
        lastStatus: 'running',
        lastMessage: '',
        lastEndedAt: null,
      })
      .where(
        and(
          eq(dbBackupCycles.id, cycle.id),
          eq(dbBackupCycles.nextRunAt, cycle.nextRunAt),
          eq(dbBackupCycles.anchorAt, cycle.anchorAt),
        ),
      )
      .returning({ id: dbBackupCycles.id });
    return rows.length > 0;
  }

  /** Cycles whose latest run is recorded running while its task has ended (or is gone). */
  async unsettled(limit: number): Promise<CycleWithTask[]> {
    const rows = await this.db
      .select(withTask)
      .from(dbBackupCycles)
      .leftJoin(tasks, eq(tasks.id, dbBackupCycles.lastTaskId))
      .where(
        and(
          eq(dbBackupCycles.lastStatus, 'running'),
          isNotNull(dbBackupCycles.lastTaskId),
          sql`(${tasks.id} is null or ${ne(tasks.status, 'ongoing')})`,
        ),
      )
      .limit(limit);
    return rows.map(flat);
  }

  /** Records the outcome of the run `taskId`, once (false: recorded already, or another run began). */
  async settled(
    cycleId: string,
    taskId: string,
    outcome: { status: 'success' | 'failed'; message: string; endedAt: Date },
  ): Promise<boolean> {
    const rows = await this.db
      .update(dbBackupCycles)
      .set({ lastStatus: outcome.status, lastMessage: outcome.message, lastEndedAt: outcome.endedAt })
      .where(
        and(
          eq(dbBackupCycles.id, cycleId),
          eq(dbBackupCycles.lastTaskId, taskId),
          eq(dbBackupCycles.lastStatus, 'running'),
        ),
      )
      .returning({ id: dbBackupCycles.id });
    return rows.length > 0;
  }

  /** The cycle's periodic dumps beyond the newest `keep` (ids; manual and uploaded dumps never). */
  async beyond(projectId: string, cycleId: string, keep: number): Promise<string[]> {
    const rows = await this.db
      .select({ id: dbBackups.id })
      .from(dbBackups)
      .where(and(eq(dbBackups.projectId, projectId), sql`starts_with(${dbBackups.taskId}, ${runPrefix(cycleId)})`))
      .orderBy(desc(dbBackups.createTime), desc(dbBackups.id))
      .offset(keep);
    return rows.map((row) => row.id);
  }

  /** Cycles whose latest run failed, newest first, in the projects `scope` allows. */
  failures(scope: SQL | undefined, limit: number) {
    return this.db
      .select({
        projectId: dbBackupCycles.projectId,
        projectName: projects.name,
        cycleId: dbBackupCycles.id,
        cycleName: dbBackupCycles.name,
        time: dbBackupCycles.lastEndedAt,
        message: dbBackupCycles.lastMessage,
      })
      .from(dbBackupCycles)
      .innerJoin(projects, eq(projects.id, dbBackupCycles.projectId))
      .where(and(eq(dbBackupCycles.lastStatus, 'failed'), scope))
      .orderBy(desc(dbBackupCycles.lastEndedAt))
      .limit(limit);
  }
}
