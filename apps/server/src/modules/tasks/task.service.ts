import type { Language } from '@gantry/shared';
import { and, eq } from 'drizzle-orm';
import { tasks } from '../../db/schema.js';
import { AppError } from '../../lib/app-error.js';
import { mapQueryError, parseListQuery } from '../../lib/list-query/list-query.js';
import type { GatedProject } from '../../plugins/project-gate.js';
import { canSeeTask, taskScope } from '../../policy/policy.js';
import type { UserRow } from '../users/user.repository.js';
import type { TaskEngine } from './task.engine.js';
import { presentTask, presentTaskWithLog, type TaskView } from './task.presenter.js';
import { TASK_RESOURCE, type TaskRepository } from './task.repository.js';

/** The task manager (`proxy/core/taskmanager`): lists and pauses what a caller may see. */
export class TaskService {
  constructor(
    private readonly repo: TaskRepository,
    private readonly engine: TaskEngine,
  ) {}

  /** With a project (the project gate resolved it for the caller): that project's tasks. */
  async list(
    user: UserRow,
    project: GatedProject | undefined,
    rawQuery: string | undefined,
    language: Language,
  ): Promise<TaskView[]> {
    const query = parseListQuery(rawQuery, TASK_RESOURCE);
    const projectId = project?.id;
    const scope = and(taskScope(user), projectId === undefined ? undefined : eq(tasks.projectId, projectId));
    try {
      return (await this.repo.list(scope, query)).map((row) => presentTask(row, language));
    } catch (error) {
      throw mapQueryError(error);
    }
  }

  async get(user: UserRow, id: string, language: Language) {
    const task = await this.repo.find(id);
    if (!task || !canSeeTask(user, task)) throw new AppError('notFound');
    return presentTaskWithLog(task, language);
  }

  /** `PATCH …/{id}` with `{status: 'pause'}`: answers the task; one that had ended is a 409. */
  async pause(user: UserRow, id: string, language: Language): Promise<TaskView> {
    const task = await this.repo.find(id);
    if (!task || !canSeeTask(user, task)) throw new AppError('notFound');
    const paused = await this.engine.pause(id);
    if (!paused) throw new AppError('taskEnded');
    return presentTask(paused, language);
  }
}
