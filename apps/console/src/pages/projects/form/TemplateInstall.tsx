import '../../templates/texts';
import { useQuery } from '@tanstack/react-query';
import { Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
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
    <span style={{ color: 'rgba(0, 0, 0, 0.45)' }} data-testid="project-template-chosen">
      {template.data.name} · {template.data.developer}
    </span>
  );
}

/**
 * The install of a template into the project just created (a task): its progress until it ends;
 * `onEnd` is told how it ended.
 */
export function TemplateInstallProgress({ taskId, onEnd }: { taskId: string; onEnd: (task: TaskState) => void }) {
  const { t } = useTranslation();
  const task = useQuery({
    queryKey: ['task', taskId],
    queryFn: () => getTask(taskId),
    refetchInterval: (query) => (query.state.data && query.state.data.status !== 'ongoing' ? false : 500),
  });
  const ended = task.data && task.data.status !== 'ongoing' ? task.data : undefined;
  useEffect(() => {
    if (ended) onEnd(ended);
  }, [ended, onEnd]);
  return (
    <Modal open closable={false} footer={null} title={t('templates.installing')} data-testid="template-install">
      <progress
        max={100}
        value={Math.round((task.data?.progress ?? 0) * 100)}
        style={{ width: '100%' }}
        data-testid="template-install-progress"
      />
    </Modal>
  );
}
