import { DB_BACKUP_LIMITS, JobState } from '@gantry/shared';
import type { NotificationInstance } from 'antd/es/notification/interface';
import { useCallback, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { dbJob } from '../../../services/dbBackup';
import { toast } from '../../../services/feedback';
import { warningText } from './warningText';

export type DbJobKind = 'dump' | 'restore';
interface Watched {
  projectId: string;
  kind: DbJobKind;
  timer: ReturnType<typeof setInterval>;
  busy: boolean;
}

/**
 * A dump or restore job, polled every 1,000 ms until it succeeds or fails (backups-data-designer.md
 * §4): success stops the polling with a toast (a warning toast when the job succeeded with a problem:
 * a dump whose FTP copy failed); failure stops it and shows the job's log as the error.
 * While a restore runs, a persistent notice says so (closed when the job ends).
 */
export function useDbJobs(notifications: NotificationInstance, onEnded: (kind: DbJobKind) => void) {
  const { t } = useTranslation();
  const watched = useRef(new Map<string, Watched>());
  const ended = useRef(onEnded);
  ended.current = onEnded;

  const stop = useCallback(
    (id: string) => {
      const job = watched.current.get(id);
      if (!job) return;
      clearInterval(job.timer);
      watched.current.delete(id);
      if (job.kind === 'restore') notifications.destroy(`db-restore-${id}`);
    },
    [notifications],
  );

  const watch = useCallback(
    (projectId: string, id: string, kind: DbJobKind) => {
      if (kind === 'restore') {
        notifications.open({
          key: `db-restore-${id}`,
          duration: 0,
          closable: false,
          message: t('dbBackups.titleRestore'),
          description: <span data-testid="db-restoring">{t('dbBackups.restoring')}</span>,
        });
      }
      const poll = async () => {
        const job = watched.current.get(id);
        if (!job || job.busy) return;
        job.busy = true;
        try {
          const answer = await dbJob(projectId, id);
          if (answer.status === JobState.Running) return;
          stop(id);
          if (answer.status === JobState.Succeeded && answer.warning) {
            toast.warning(<span data-testid="db-job-warning">{warningText(answer.warning)}</span>);
          } else if (answer.status === JobState.Succeeded) {
            toast.success(t(kind === 'restore' ? 'dbBackups.restored' : 'dbBackups.complete'));
          } else toast.error(answer.log || t('dbBackups.failed'));
          ended.current(kind);
        } catch (error) {
          stop(id);
          toast.error(error instanceof Error && error.message ? error.message : t('dbBackups.failed'));
          ended.current(kind);
        } finally {
          job.busy = false;
        }
      };
      const timer = setInterval(() => void poll(), DB_BACKUP_LIMITS.jobPollMs);
      watched.current.set(id, { projectId, kind, timer, busy: false });
    },
    [notifications, stop, t],
  );

  useEffect(() => {
    const jobs = watched.current;
    return () => {
      for (const job of jobs.values()) clearInterval(job.timer);
      jobs.clear();
    };
  }, []);

  return watch;
}
