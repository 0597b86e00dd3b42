import type { TaskRow } from './task.repository.js';

/** A task as the task manager and the progress channel show it (no params, no runner, no log). */
export interface TaskView {
  id: string;
  projectId: string | null;
  type: string;
  status: TaskRow['status'];
  progress: number;
  requestId: string;
  message: string | null;
  startTime: string;
  endTime: string | null;
}

export function presentTask(row: TaskRow): TaskView {
  return {
    id: row.id,
    projectId: row.projectId,
    type: row.type,
    status: row.status,
    progress: row.progress,
    requestId: row.requestId,
    message: row.message,
    startTime: row.startTime.toISOString(),
    endTime: row.endTime?.toISOString() ?? null,
  };
}

/** Same, with the log: for the one task a caller asks for. */
export function presentTaskWithLog(row: TaskRow): TaskView & { log: string } {
  return { ...presentTask(row), log: row.log };
}
