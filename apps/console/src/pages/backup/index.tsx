import './texts';
import type { BackupView } from '@gantry/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Card, Empty, Select } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../services/request';
import { BackupList, type BackupTab } from './components/BackupList';
import { useQueryParams } from './components/useQueryParams';

// The dialogs load when opened (weight/budgets.ts: the list shows none until asked).
const CreateBackup = lazy(() => import('./components/CreateBackup').then((m) => ({ default: m.CreateBackup })));
const DownloadBackup = lazy(() => import('./components/DownloadBackup').then((m) => ({ default: m.DownloadBackup })));
const RestoreBackup = lazy(() => import('./components/RestoreBackup').then((m) => ({ default: m.RestoreBackup })));
const UploadBackup = lazy(() => import('./components/UploadBackup').then((m) => ({ default: m.UploadBackup })));

/** What the project menus open (`?action=`): back up, upload, restore (backups-data-designer.md §2). */
export type BackupAction = 'create' | 'upload' | 'restore';
type Dialog =
  | { kind: 'create' }
  | { kind: 'upload' }
  | { kind: 'download'; record: BackupView }
  | { kind: 'restore'; record: BackupView }
  | null;

/**
 * /app/backup?projectId=…: a project's backups and restores, what the project backup dialog shows
 * (§2), with the creation, upload, download and restore dialogs. Without a project: a picker.
 */
export default function BackupPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParam] = useQueryParams();
  const projectId = params.get('projectId') ?? '';
  const action = params.get('action');
  const tab: BackupTab = params.get('tab') === 'reduction' ? 'reduction' : 'backups';
  const [dialog, setDialog] = useState<Dialog>(() =>
    action === 'create' || action === 'upload' ? { kind: action } : null,
  );
  // A project menu may ask again while the page is open (a new ?action= on the same page).
  useEffect(() => {
    if (action === 'create' || action === 'upload') setDialog({ kind: action });
  }, [action]);
  const projects = useQuery({
    queryKey: ['project-available'],
    queryFn: () => request<Array<{ id: string; name: string }>>('rest/spm/project/available'),
  });
  const project = projects.data?.find((p) => p.id === projectId);

  const close = () => {
    setDialog(null);
    if (action) setParam({ action: null });
  };

  return (
    <Card
      title={t('project.backup')}
      extra={
        <Select
          showSearch
          optionFilterProp="label"
          placeholder={t('backups.pickProject')}
          value={projectId || undefined}
          loading={projects.isLoading}
          options={(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          onChange={(value: string) => setParam({ projectId: value, action: null })}
          style={{ width: 220, maxWidth: '50vw' }}
          data-testid="backup-project"
        />
      }
      styles={{ body: { paddingTop: 0 } }}
    >
      {!projectId ? (
        <Empty description={t('backups.pickProject')} style={{ padding: 32 }} />
      ) : (
        <BackupList
          key={projectId}
          projectId={projectId}
          tab={tab}
          onTab={(next) => setParam({ tab: next === 'reduction' ? 'reduction' : null })}
          onCreate={() => setDialog({ kind: 'create' })}
          onUpload={() => setDialog({ kind: 'upload' })}
          onDownload={(record) => setDialog({ kind: 'download', record })}
          onRestore={(record) => setDialog({ kind: 'restore', record })}
        />
      )}
      <Suspense fallback={null}>
        {projectId && dialog?.kind === 'create' && (projects.data || projects.isError) && (
          <CreateBackup projectId={projectId} projectName={project?.name ?? ''} onClose={close} />
        )}
        {projectId && dialog?.kind === 'upload' && (
          <UploadBackup
            projectId={projectId}
            onClose={close}
            onUploaded={() => void queryClient.invalidateQueries({ queryKey: ['backups', projectId] })}
          />
        )}
        {projectId && dialog?.kind === 'download' && (
          <DownloadBackup projectId={projectId} record={dialog.record} onClose={close} />
        )}
        {projectId && dialog?.kind === 'restore' && (
          <RestoreBackup projectId={projectId} record={dialog.record} onClose={close} />
        )}
      </Suspense>
    </Card>
  );
}
