import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../services/feedback';
import { reportError, request } from '../../services/request';
import { formatDateTime } from '../../utils/dateTime';

interface TaskView {
  id: string;
  status: 'ongoing' | 'pause' | 'success' | 'failed';
  progress: number;
  message: string | null;
  startTime: string;
  endTime: string | null;
}

const LAST_RUN_KEY = ['retention', 'last-run'] as const;
const STATUS_COLOUR: Record<TaskView['status'], string> = {
  ongoing: 'processing',
  pause: 'warning',
  success: 'success',
  failed: 'error',
};

/** When the retention clean-up last ran and what it removed; a button runs it now. */
export function LastRun() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [starting, setStarting] = useState(false);
  const { data } = useQuery({
    queryKey: LAST_RUN_KEY,
    queryFn: () => request<{ task: TaskView | null }>('rest/spm/setting/bbs_realtime/last-run'),
    // While it runs, look again every second (the spec's job polling period).
    refetchInterval: (query) => (query.state.data?.task?.status === 'ongoing' ? 1_000 : false),
  });
  const task = data?.task ?? null;

  const runNow = async () => {
    setStarting(true);
    try {
      await request('rest/spm/setting/bbs_realtime/run', { method: 'POST' });
      toast.success(t('retention.started'));
      await queryClient.invalidateQueries({ queryKey: LAST_RUN_KEY });
    } catch (error) {
      reportError(error);
    } finally {
      setStarting(false);
    }
  };

  return (
    <Descriptions
      data-testid="retention-last-run"
      column={1}
      size="small"
      title={t('retention.lastRun')}
      extra={
        <Button data-testid="retention-run" onClick={runNow} loading={starting} disabled={task?.status === 'ongoing'}>
          {t('retention.runNow')}
        </Button>
      }
      items={
        task
          ? [
              {
                key: 'status',
                label: t('retention.status'),
                children: (
                  <Tag color={STATUS_COLOUR[task.status]}>
                    {t(`retention.status.${task.status}`)}
                    {task.status === 'ongoing' ? ` ${Math.round(task.progress * 100)}%` : ''}
                  </Tag>
                ),
              },
              { key: 'start', label: t('retention.startTime'), children: formatDateTime(task.startTime) },
              {
                key: 'end',
                label: t('retention.endTime'),
                children: task.endTime ? formatDateTime(task.endTime) : '-',
              },
              { key: 'result', label: t('retention.result'), children: task.message ?? '-' },
            ]
          : [{ key: 'never', label: t('retention.status'), children: t('retention.never') }]
      }
    />
  );
}
