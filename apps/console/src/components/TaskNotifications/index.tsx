import { PauseCircleOutlined } from '@ant-design/icons';
import { Button, notification, Progress, Tooltip } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { backupTaskEnded, isBackupTask, wasStartedHere } from '../../services/backupTasks';
import { ProgressSocket, type TaskProgress } from '../../services/progressSocket';
import { reportError, request } from '../../services/request';
import { getToken } from '../../services/session';

/** A notification key per task. */
const keyOf = (task: TaskProgress) => `task-${task.id}`;

/**
 * The persistent progress notifications of running tasks (backups-data-designer.md §2, progress
 * notification): percentage and a stop icon (pause), open until the task ends. Fed by the one
 * progress websocket; after a page reload the running tasks are found again by the task manager
 * call below and by the socket's next message (within a second).
 */
export function TaskNotifications() {
  const { t } = useTranslation();
  const [api, holder] = notification.useNotification({ stack: { threshold: 3 } });
  const shown = useRef(new Set<string>());

  useEffect(() => {
    const token = getToken();
    if (!token) return;
    const show = (task: TaskProgress) => {
      const key = keyOf(task);
      if (task.status !== 'ongoing') {
        const seen = shown.current.delete(key);
        if (seen) api.destroy(key);
        // Only an end seen happening: the socket's first answer also lists tasks that ended earlier.
        if (isBackupTask(task.type) && (seen || wasStartedHere(task.id))) backupTaskEnded(task);
        return;
      }
      shown.current.add(key);
      const pause = async () => {
        try {
          await request(`rest/spm/proxy/core/taskmanager/${encodeURIComponent(task.id)}`, {
            method: 'PATCH',
            body: { status: 'pause', id: task.id },
          });
        } catch (error) {
          reportError(error);
        }
      };
      api.open({
        key,
        duration: 0,
        closable: false,
        message: t(`task.type.${task.type}`, { defaultValue: task.type }),
        description: (
          <div data-testid={`task-progress-${task.id}`} style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
            <Progress percent={Math.floor(task.progress * 100)} size="small" style={{ flex: 1, margin: 0 }} />
            <Tooltip title={t('task.pause')}>
              <Button
                aria-label={t('task.pause')}
                data-testid={`task-pause-${task.id}`}
                type="text"
                icon={<PauseCircleOutlined />}
                onClick={pause}
              />
            </Tooltip>
          </div>
        ),
      });
    };
    const socket = new ProgressSocket(token);
    const unsubscribe = socket.subscribe((tasks) => {
      for (const task of tasks) show(task);
    });
    socket.start();
    const query = encodeURIComponent(
      JSON.stringify({ filter: { status: 'ongoing' }, sort: { startTime: -1 }, limit: 15 }),
    );
    request<TaskProgress[]>(`rest/spm/proxy/core/taskmanager?query=${query}`, { noMessage: true }).then(
      (tasks) => {
        for (const task of tasks) show(task);
      },
      () => undefined,
    );
    return () => {
      unsubscribe();
      socket.stop();
      for (const key of shown.current) api.destroy(key);
      shown.current.clear();
    };
  }, [api, t]);

  return holder;
}
