import { isMessageKey, type Language, translate } from '@gantry/shared';
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

/** The task as the caller sees it: an outcome stored as a message key (the engine's own) in their language. */
export function presentTask(row: TaskRow, language: Language): TaskView {
  return {
    id: row.id,
    projectId: row.projectId,
    type: row.type,
    status: row.status,
    progress: row.progress,
    requestId: row.requestId,
    message: row.message !== null && isMessageKey(row.message) ? translate(row.message, language) : row.message,
    startTime: row.startTime.toISOString(),
    endTime: row.endTime?.toISOString() ?? null,
  };
}

/** Same, with the log: for the one task a caller asks for. */
export function presentTaskWithLog(row: TaskRow, language: Language): TaskView & { log: string } {
  return { ...presentTask(row, language), log: row.log };
}
