import { BACKUP_LIMITS, BACKUP_TASK_EXPORT, BACKUP_TASK_IMPORT, TaskState } from '@gantry/shared';
import { createElement } from 'react';
import { SignOutCountdown } from '../components/backups/SignOutCountdown';
import i18n from '../i18n';
import { backupTaskEn } from '../i18n/backup.en';
import { backupTaskZh } from '../i18n/backup.zh_Hans';
import { logout } from './auth';
import { toast } from './feedback';
import { navigateTo } from './navigation';
import type { TaskProgress } from './progressSocket';
import { clearUser } from './session';

/**
 * What the console does when a backup or restore task ends (backups-data-designer.md §4): a backup
 * closes its notification, resets the backup list's filter and says 'backup complete'; a restore
 * says so and signs out 5 s later, so that the restored data takes effect at the next login.
 */
i18n.addResourceBundle('zh_Hans', 'translation', backupTaskZh, true, false);
i18n.addResourceBundle('en', 'translation', backupTaskEn, true, false);

type Listener = (task: TaskProgress) => void;
const listeners = new Set<Listener>();
/** Tasks this tab started: their end is acted on even if no progress was seen before it. */
const started = new Set<string>();
/** Tasks whose end was acted on: once (the socket may tell an end more than once, to more than one listener). */
const ended = new Set<string>();

export const isBackupTask = (type: string) => type === BACKUP_TASK_EXPORT || type === BACKUP_TASK_IMPORT;

/** The backup page: told when a backup task of any project ends (it resets its list). */
export function onBackupTaskEnded(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A task this tab has just started. */
export function watchBackupTask(id: string): void {
  started.add(id);
}

export function wasStartedHere(id: string): boolean {
  return started.has(id);
}

/** A backup task seen running (or started here) has ended with `task.status`. */
export function backupTaskEnded(task: TaskProgress): void {
  if (ended.has(task.id)) return;
  ended.add(task.id);
  started.delete(task.id);
  for (const listener of listeners) listener(task);
  if (task.status === TaskState.Failed) {
    toast.error(task.message || i18n.t('request.failed'));
    return;
  }
  if (task.status !== TaskState.Succeeded) return;
  if (task.type === BACKUP_TASK_EXPORT) {
    toast.success(i18n.t('backups.complete'));
    return;
  }
  // The notice stays, counting down, until the sign-out (and a moment after, while the login page opens).
  const at = Date.now() + BACKUP_LIMITS.restoreRedirectMs;
  toast.success(createElement(SignOutCountdown, { message: i18n.t('backups.restored'), at }), {
    seconds: BACKUP_LIMITS.restoreRedirectMs / 1000 + 2,
  });
  setTimeout(() => {
    void logout()
      .catch(() => undefined)
      .then(() => {
        clearUser({ deliberate: true });
        navigateTo('/login', { replace: true });
      });
  }, BACKUP_LIMITS.restoreRedirectMs);
}
