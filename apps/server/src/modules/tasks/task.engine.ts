import { randomBytes } from 'node:crypto';
import { type MessageKey, type TaskOutcome, TaskState } from '@gantry/shared';
import type { SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Clock } from '../../lib/clock.js';
import type { TaskRepository, TaskRow } from './task.repository.js';

/** What a task's work sees: its row, a way to report progress, and its safe points. */
export interface TaskContext {
  readonly task: TaskRow;
  /** Progress 0..1; written to the database at most every `reportMs` (and at the end). */
  progress(fraction: number): void;
  /** A safe point: throws `TaskPaused` once a pause was asked for, and when the server stops. */
  checkpoint(): Promise<void>;
  /** A line of the task's log (kept to the last 64 KiB). */
  log(line: string): void;
}

/** Parameters as a task row stores them (a JSON object). */
export type TaskParams = Record<string, unknown>;

/** The project a project task works on (a platform task has none: a task type that needs one was given one at submit). */
export function projectOf(task: Pick<TaskRow, 'id' | 'projectId'>): string {
  // A bug, not a user's problem: the task fails with the internal error.
  if (task.projectId === null) throw new Error(`task ${task.id} has no project`);
  return task.projectId;
}

/**
 * A task type: its name (the row's `type`) and the schema of its parameters. The engine checks a
 * row's parameters against it before the handler runs, so a handler gets them typed (issue 30).
 */
export interface TaskType<P extends TaskParams> {
  readonly name: string;
  readonly params: z.ZodType<P>;
}

export function taskType<P extends TaskParams>(name: string, params: z.ZodType<P>): TaskType<P> {
  return { name, params };
}

/** The work of one task type; answers the outcome in words (shown as the task's message). */
export type TaskHandler<P extends TaskParams> = (context: TaskContext, params: P) => Promise<string>;

export interface TaskInput<P extends TaskParams> {
  /** Null: a platform task. */
  projectId: string | null;
  /** The user id that asked (`system` for scheduled work). */
  requester: string;
  /** The client's id for the request, to find its progress; a new one when absent. */
  requestId?: string | undefined;
  params: P;
}

/** A failure whose message is for the task's watchers (other errors are logged, and shown as INTERNAL_FAILURE). */
export class TaskError extends Error {}

/**
 * What watchers see of an unexpected error: its details (SQL, paths) stay in the server log. The
 * engine's own outcomes are stored as message keys, which presentTask translates (and the console
 * too, for the progress channel).
 */
export const INTERNAL_FAILURE = 'task.internalFailure' satisfies MessageKey;

/** Thrown at a safe point of a task that must stop. */
export class TaskPaused extends Error {
  constructor(readonly reason: 'pause' | 'shutdown') {
    super(reason === 'pause' ? 'paused' : 'the server stopped');
  }
}

export interface TaskEngineOptions {
  /** Tasks run side by side at most (per process). */
  concurrency: number;
  /** How often waiting tasks are looked for (a submit here looks at once). */
  pollMs: number;
  /** How often a running task's progress and heartbeat are written. */
  reportMs: number;
  /** A runner silent this long is gone (another process on PostgreSQL): its tasks fail. */
  staleMs: number;
  /** The embedded engine: this process is the only one, so any other runner is gone. */
  onlyProcess: boolean;
  log: { warn(fields: object, message: string): void; error(fields: object, message: string): void };
}

const LOG_MAX = 64 * 1024;
export const SERVER_STOPPED = 'task.serverStopped' satisfies MessageKey;

/** A task that ended in this process: its type, how it ended, and how long it ran here. */
export interface TaskFinish {
  type: string;
  status: TaskOutcome;
  seconds: number;
}

interface Running {
  task: TaskRow;
  /** performance.now() when this process began running it. */
  began: number;
  progress: number;
  pauseRequested: boolean;
  log: string[];
  logBytes: number;
}

/**
 * One task engine for all long work (design D5). Tasks are rows: a submit inserts one (`ongoing`, no
 * runner); an engine claims waiting ones (`FOR UPDATE SKIP LOCKED`), runs them up to `concurrency`
 * at once, writes progress and a heartbeat, and finishes them `success`, `failed` or `pause`. On
 * start, tasks left `ongoing` by a process that is gone are failed with SERVER_STOPPED; waiting
 * ones are simply claimed (they never started).
 */
export class TaskEngine {
  readonly runner = `r${randomBytes(8).toString('hex')}`;
  private readonly handlers = new Map<string, (context: TaskContext) => Promise<string>>();
  private readonly running = new Map<string, Running>();
  private poller: NodeJS.Timeout | undefined;
  private reporter: NodeJS.Timeout | undefined;
  private claiming: Promise<void> | undefined;
  private again = false;
  private stopping = false;
  private readonly finished = new Set<Promise<void>>();
  private readonly changeListeners = new Set<() => void>();
  private readonly finishListeners = new Set<(finish: TaskFinish) => void>();

  constructor(
    private readonly repo: TaskRepository,
    private readonly clock: Clock,
    private readonly options: TaskEngineOptions,
  ) {}

  register<P extends TaskParams>(type: TaskType<P>, handler: TaskHandler<P>): void {
    this.handlers.set(type.name, (context) => {
      const params = type.params.safeParse(context.task.params);
      if (!params.success) throw new Error(`task ${context.task.id} (${type.name}): parameters not of their schema`);
      return handler(context, params.data);
    });
  }

  /**
   * Calls `listener` each time this engine has written a task row (claimed, progress, ended), so that
   * the progress channel can send it at once instead of at its next tick.
   */
  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Calls `listener` each time a task running here has ended and its outcome was written (metrics). */
  onFinish(listener: (finish: TaskFinish) => void): () => void {
    this.finishListeners.add(listener);
    return () => this.finishListeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  /**
   * Never fails: with the database down, the clean-up and the claims are tried again at each poll.
   * `ongoing: false`: the start's recovery check (`leftOver`) found no ongoing task, so there is none
   * to fail or to claim now (the first poll looks again): no statement before the server listens.
   */
  async start({ ongoing = true }: { ongoing?: boolean } = {}): Promise<void> {
    const cleanUp = () =>
      this.failOrphans().catch((error: unknown) => this.options.log.warn({ err: error }, 'task clean-up failed'));
    if (ongoing) await cleanUp();
    this.poller = setInterval(() => {
      void cleanUp();
      this.kick();
    }, this.options.pollMs);
    this.poller.unref();
    this.reporter = setInterval(() => void this.reportAll(), this.options.reportMs);
    this.reporter.unref();
    if (ongoing) this.kick();
  }

  /** True in the database when a task is ongoing: waiting to be claimed, or left running by a stopped server. */
  leftOver(): SQL {
    return this.repo.ongoingExists();
  }

  /** Queues a task; it runs here or in another process, whichever claims it first. */
  async submit<P extends TaskParams>(type: TaskType<P>, input: TaskInput<P>): Promise<TaskRow> {
    const task = await this.submitOnce(type, { ...input, id: `t${randomBytes(10).toString('hex')}` });
    if (!task) throw new Error('a new task id was taken');
    return task;
  }

  /**
   * Queues a task under a given id, unless a task has that id already (undefined then): a periodic
   * task named after its period runs once per period, however many processes try.
   */
  async submitOnce<P extends TaskParams>(
    type: TaskType<P>,
    input: TaskInput<P> & { id: string },
  ): Promise<TaskRow | undefined> {
    if (!this.handlers.has(type.name)) throw new Error(`no handler for task type ${type.name}`);
    const now = this.clock();
    const task = await this.repo.insert({
      id: input.id,
      projectId: input.projectId,
      type: type.name,
      status: TaskState.Ongoing,
      progress: 0,
      params: type.params.parse(input.params),
      requester: input.requester,
      requestId: input.requestId ?? randomBytes(8).toString('hex'),
      message: null,
      log: '',
      pauseRequested: false,
      runner: null,
      heartbeatAt: null,
      startTime: now,
      endTime: null,
      updatedAt: now,
    });
    if (task) this.kick();
    return task;
  }

  /** Asks a task to pause (see TaskRepository.requestPause); a task running here stops at its next safe point. */
  async pause(id: string): Promise<TaskRow | undefined> {
    const task = await this.repo.requestPause(id, this.clock());
    const here = this.running.get(id);
    if (here) here.pauseRequested = true;
    return task;
  }

  /** Stops claiming; running tasks stop at their next safe point and are failed with SERVER_STOPPED. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.poller);
    clearInterval(this.reporter);
    await this.claiming;
    await Promise.all([...this.finished]);
  }

  /**
   * Claims nothing more until `resume` (a platform restore replaces the tasks table under the engine):
   * answers once no task runs here. The caller makes sure none was running.
   */
  async quiesce(): Promise<void> {
    await this.stop();
  }

  /** Claims tasks again after `quiesce`. */
  async resume(): Promise<void> {
    this.stopping = false;
    await this.start();
  }

  /** Looks for waiting tasks now (once more after the current look, if one is under way). */
  private kick(): void {
    if (this.stopping) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.claim()
      .catch((error: unknown) => this.options.log.warn({ err: error }, 'claiming tasks failed'))
      .finally(() => {
        this.claiming = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async claim(): Promise<void> {
    const free = this.options.concurrency - this.running.size;
    const claimed = await this.repo.claim(this.runner, [...this.handlers.keys()], free, this.clock());
    for (const task of claimed) this.run(task);
    if (claimed.length > 0) this.changed();
  }

  private run(task: TaskRow): void {
    const handler = this.handlers.get(task.type);
    const state: Running = {
      task,
      began: performance.now(),
      progress: task.progress,
      pauseRequested: task.pauseRequested,
      log: [],
      logBytes: 0,
    };
    this.running.set(task.id, state);
    const context: TaskContext = {
      task,
      progress: (fraction) => {
        state.progress = Math.min(1, Math.max(0, fraction));
      },
      checkpoint: async () => {
        if (this.stopping) throw new TaskPaused('shutdown');
        if (state.pauseRequested) throw new TaskPaused('pause');
      },
      log: (line) => {
        state.log.push(line);
        state.logBytes += Buffer.byteLength(line) + 1;
        while (state.logBytes > LOG_MAX && state.log.length > 1) {
          state.logBytes -= Buffer.byteLength(state.log.shift() ?? '') + 1;
        }
      },
    };
    const work = (async () => {
      if (!handler) throw new Error(`no handler for task type ${task.type}`);
      return handler(context);
    })();
    const done = work
      .then(
        (message) => this.finish(state, { status: TaskState.Succeeded, message, progress: 1 }),
        (error: unknown) => {
          if (error instanceof TaskPaused) {
            return this.finish(
              state,
              error.reason === 'pause'
                ? { status: TaskState.Paused, message: 'task.paused' satisfies MessageKey }
                : { status: TaskState.Failed, message: SERVER_STOPPED },
            );
          }
          this.options.log.warn({ err: error, task: task.id, type: task.type }, 'task failed');
          return this.finish(state, {
            status: TaskState.Failed,
            message: error instanceof TaskError ? error.message : INTERNAL_FAILURE,
          });
        },
      )
      .catch((error: unknown) =>
        this.options.log.error({ err: error, task: task.id }, 'could not record a task outcome'),
      )
      .finally(() => {
        this.running.delete(task.id);
        this.finished.delete(done);
        this.kick();
      });
    this.finished.add(done);
  }

  private async finish(
    state: Running,
    outcome: { status: TaskOutcome; message: string; progress?: number },
  ): Promise<void> {
    await this.repo.finish(
      state.task.id,
      this.runner,
      {
        ...outcome,
        ...(outcome.progress === undefined ? { progress: state.progress } : {}),
        log: state.log.join('\n'),
      },
      this.clock(),
    );
    this.changed();
    const finish = { type: state.task.type, status: outcome.status, seconds: (performance.now() - state.began) / 1000 };
    for (const listener of this.finishListeners) listener(finish);
  }

  /** Progress and heartbeat of every task running here; learns of pause requests made elsewhere. */
  private async reportAll(): Promise<void> {
    if (this.running.size === 0) return;
    const now = this.clock();
    await Promise.all(
      [...this.running.values()].map(async (state) => {
        try {
          if (await this.repo.report(state.task.id, this.runner, state.progress, now)) state.pauseRequested = true;
        } catch (error) {
          this.options.log.warn({ err: error, task: state.task.id }, 'task progress not written');
        }
      }),
    );
    this.changed();
  }

  private async failOrphans(): Promise<void> {
    const now = this.clock();
    const failed = await this.repo.failOrphans({
      alive: this.runner,
      onlyProcess: this.options.onlyProcess,
      staleBefore: new Date(now.getTime() - this.options.staleMs),
      now,
      message: SERVER_STOPPED,
    });
    if (failed.length > 0)
      this.options.log.warn({ tasks: failed.map((row) => row.id) }, 'tasks of a stopped server failed');
  }
}
