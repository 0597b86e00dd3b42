import './texts';
import '../../components/backups/texts';
import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, notification, Select, Tabs } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryParams } from '../../components/backups/useQueryParams';
import type { DbBackupSource } from '../../services/dbBackup';
import { request } from '../../services/request';
import { testId } from '../../utils/testId';
import { DbBackupList, type DbBackupRow, dbBackupsKey } from './components/DbBackupList';
import { useDbJobs } from './components/useDbJobs';

// The dialogs load when opened (weight/budgets.ts).
const dialogs = () => import('./components/DbBackupDialogs');
const DumpDialog = lazy(() => dialogs().then((m) => ({ default: m.DumpDialog })));
const UploadDialog = lazy(() => dialogs().then((m) => ({ default: m.UploadDialogOf })));
const RestoreDialog = lazy(() => dialogs().then((m) => ({ default: m.RestoreDialogOf })));
const DownloadDialog = lazy(() => dialogs().then((m) => ({ default: m.DownloadDialogOf })));
// The periodic backups tab (issue 13 §3) loads when shown.
const CyclePanel = lazy(() => import('./components/CyclePanel').then((m) => ({ default: m.CyclePanel })));

/** What the project menus open (`?action=`): upload, back up, restore, FTP restore (§2). */
export type DbBackupAction = 'upload' | 'create' | 'restore' | 'ftpRestore';
type Dialog =
  | { kind: 'create' }
  | { kind: 'upload' }
  | { kind: 'download'; source: DbBackupSource; row: DbBackupRow }
  | { kind: 'restore'; source: DbBackupSource; row: DbBackupRow }
  | null;
/**
 * /app/db-backup?projectId=…: the database backup dialog (backups-data-designer.md §2), titled for
 * backup or restore: the dump backups and the FTP list, back up and upload, and per row download,
 * restore and delete. Jobs are polled every second; a restore shows the persistent 'restoring' notice.
 */
export default function DbBackupPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParam] = useQueryParams();
  const projectId = params.get('projectId') ?? '';
  const action = params.get('action') as DbBackupAction | null;
  const source: DbBackupSource = params.get('tab') === 'ftp' || action === 'ftpRestore' ? 'ftp' : 'backup';
  const restoring = action === 'restore' || action === 'ftpRestore';
  const tab = params.get('tab') === 'cycles' && !action ? 'cycles' : source;
  const [dialog, setDialog] = useState<Dialog>(() =>
    action === 'create' || action === 'upload' ? { kind: action } : null,
  );
  // A project menu may ask again while the page is open (a new ?action= on the same page).
  useEffect(() => {
    if (action === 'create' || action === 'upload') setDialog({ kind: action });
  }, [action]);
  const [notifications, notificationHolder] = notification.useNotification();
  const watch = useDbJobs(notifications, () => {
    void queryClient.invalidateQueries({ queryKey: ['db-backups', projectId] });
  });
  const projects = useQuery({
    queryKey: ['project-available'],
    queryFn: () => request<Array<{ id: string; name: string }>>('rest/spm/project/available'),
  });
  const project = projects.data?.find((p) => p.id === projectId);

  const close = () => {
    setDialog(null);
    if (action === 'create' || action === 'upload') setParam({ action: null });
  };

  return (
    <Card
      title={<span data-testid="db-title">{t(restoring ? 'dbBackups.titleRestore' : 'dbBackups.titleBackup')}</span>}
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
          data-testid="db-project"
        />
      }
      styles={{ body: { paddingTop: 0 } }}
    >
      {notificationHolder}
      {!projectId ? (
        <Empty description={t('backups.pickProject')} style={{ padding: 32 }} />
      ) : (
        <>
          <Tabs
            activeKey={tab}
            onChange={(key) => setParam({ tab: key === 'backup' ? null : key, action: null })}
            items={[
              { key: 'backup', label: <span data-testid="db-tab-backup">{t('dbBackups.tab.backup')}</span> },
              { key: 'ftp', label: <span data-testid="db-tab-ftp">{t('dbBackups.tab.ftp')}</span> },
              { key: 'cycles', label: <span data-testid="db-tab-cycles">{t('cycles.tab')}</span> },
            ]}
          />
          {tab === 'cycles' ? (
            <Suspense fallback={null}>
              <CyclePanel key={projectId} projectId={projectId} />
            </Suspense>
          ) : (
            <DbBackupList
              key={`${projectId}-${source}`}
              projectId={projectId}
              source={source}
              toolbar={
                <>
                  <Button
                    type="primary"
                    icon={<PlusOutlined />}
                    onClick={() => setDialog({ kind: 'create' })}
                    {...testId('db-create')}
                  >
                    {t('backups.create')}
                  </Button>
                  <Button
                    icon={<UploadOutlined />}
                    onClick={() => setDialog({ kind: 'upload' })}
                    {...testId('db-upload')}
                  >
                    {t('backups.upload')}
                  </Button>
                </>
              }
              onDownload={(row) => setDialog({ kind: 'download', source, row })}
              onRestore={(row) => setDialog({ kind: 'restore', source, row })}
            />
          )}
        </>
      )}
      <Suspense fallback={null}>
        {projectId && dialog?.kind === 'create' && (projects.data || projects.isError) && (
          <DumpDialog
            projectId={projectId}
            projectName={project?.name ?? ''}
            onClose={close}
            onStarted={(id) => watch(projectId, id, 'dump')}
          />
        )}
        {projectId && dialog?.kind === 'upload' && (
          <UploadDialog
            projectId={projectId}
            onClose={close}
            onUploaded={() => void queryClient.invalidateQueries({ queryKey: dbBackupsKey(projectId, 'backup') })}
          />
        )}
        {projectId && dialog?.kind === 'download' && (
          <DownloadDialog projectId={projectId} source={dialog.source} row={dialog.row} onClose={close} />
        )}
        {projectId && dialog?.kind === 'restore' && (
          <RestoreDialog
            projectId={projectId}
            source={dialog.source}
            row={dialog.row}
            onClose={close}
            onStarted={(id) => watch(projectId, id, 'restore')}
          />
        )}
      </Suspense>
    </Card>
  );
}
