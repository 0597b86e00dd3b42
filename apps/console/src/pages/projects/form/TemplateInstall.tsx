import '../../templates/texts';
import { TASK_SOCKET_PATIENCE_MS } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import { Modal, Progress } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SECONDARY_TEXT_COLOUR } from '../../../app/theme';
import { ProgressSocket } from '../../../services/progressSocket';
import { getToken } from '../../../services/session';
import { getTask, getTemplate, type TaskState } from '../../../services/templates';

/** The chosen template's name and intro under the template field (the id stays what is sent). */
export function ChosenTemplate({ id }: { id: string | null | undefined }) {
  const template = useQuery({
    queryKey: ['template', id],
    queryFn: () => getTemplate(id ?? '', { noMessage: true }),
    enabled: Boolean(id),
    retry: false,
  });
  if (!id || !template.data) return null;
  return (
    <span style={{ color: SECONDARY_TEXT_COLOUR }} data-testid="project-template-chosen">
      {template.data.name} · {template.data.developer}
    </span>
  );
}

/**
 * A task's state from the progress websocket (`historycomputed`, the server sends each change as it
 * is written). Polled instead (every 500 ms) only while the socket is closed, has not opened within
 * TASK_SOCKET_PATIENCE_MS, or has said nothing of the task for that long (it ended before the socket
 * listened). Answers the latest state and where it came from.
 */
export function useTaskProgress(taskId: string): { task: TaskState | undefined; source: 'socket' | 'poll' | null } {
  const [heard, setHeard] = useState<TaskState>();
  const [impatient, setImpatient] = useState(false);

  useEffect(() => {
    const token = getToken();
    if (!token) {
      setImpatient(true);
      return;
    }
    let patience: ReturnType<typeof setTimeout> | undefined;
    const wait = () => {
      clearTimeout(patience);
      setImpatient(false);
      patience = setTimeout(() => setImpatient(true), TASK_SOCKET_PATIENCE_MS);
    };
    const socket = new ProgressSocket(token);
    const unsubscribe = socket.subscribe((tasks) => {
      const task = tasks.find((item) => item.id === taskId);
      if (!task) return;
      setHeard(task);
      if (task.status === 'ongoing') wait();
      else clearTimeout(patience);
    });
    const unwatch = socket.onStatus((open) => {
      if (open) wait();
      else {
        // Closed: poll at once until it is back.
        clearTimeout(patience);
        setImpatient(true);
      }
    });
    wait();
    socket.start();
    return () => {
      clearTimeout(patience);
      unsubscribe();
      unwatch();
      socket.stop();
    };
  }, [taskId]);

  const heardEnd = heard !== undefined && heard.status !== 'ongoing';
  const polled = useQuery({
    queryKey: ['task', taskId],
    queryFn: () => getTask(taskId),
    enabled: impatient && !heardEnd,
    refetchInterval: (query) => (query.state.data && query.state.data.status !== 'ongoing' ? false : 500),
  }).data;
  // The further of the two: an end first, then the larger progress.
  const pollAhead =
    polled !== undefined &&
    !heardEnd &&
    (heard === undefined || polled.status !== 'ongoing' || polled.progress > heard.progress);
  if (pollAhead) return { task: polled, source: 'poll' };
  return { task: heard, source: heard ? 'socket' : null };
}

/**
 * The install of a template into the project just created (a task): its progress until it ends,
 * from the progress websocket (polling only as a fallback); `onEnd` is told how it ended.
 */
export function TemplateInstallProgress({ taskId, onEnd }: { taskId: string; onEnd: (task: TaskState) => void }) {
  const { t } = useTranslation();
  const { task, source } = useTaskProgress(taskId);
  const ended = task && task.status !== 'ongoing' ? task : undefined;
  useEffect(() => {
    if (ended) onEnd(ended);
  }, [ended, onEnd]);
  return (
    <Modal open closable={false} footer={null} title={t('templates.installing')} data-testid="template-install">
      <div data-testid="template-install-progress" data-source={source ?? ''}>
        <Progress percent={Math.floor((task?.progress ?? 0) * 100)} status="active" />
      </div>
    </Modal>
  );
}
