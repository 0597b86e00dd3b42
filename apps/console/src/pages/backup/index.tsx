import '../../components/backups/texts';
import { DownloadOutlined, PlusOutlined, RollbackOutlined, UploadOutlined } from '@ant-design/icons';
import { BACKUP_KINDS, type BackupView, RESTORE_RULES } from '@gantry/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Select, Tabs, Tag } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BackupList, type BackupListQuery } from '../../components/backups/BackupList';
import { useQueryParams } from '../../components/backups/useQueryParams';
import { deleteBackup, listBackups, renameBackup } from '../../services/backup';
import { onBackupTaskEnded } from '../../services/backupTasks';
import { likeText } from '../../services/list';
import { request } from '../../services/request';
import { useSessionUser } from '../../services/session';
import { testId } from '../../utils/testId';

// The dialogs load when opened (weight/budgets.ts: the list shows none until asked).
const dialogs = () => import('./dialogs');
const CreateBackup = lazy(() => dialogs().then((m) => ({ default: m.CreateBackup })));
const DownloadBackup = lazy(() => dialogs().then((m) => ({ default: m.DownloadBackup })));
const RestoreBackup = lazy(() => dialogs().then((m) => ({ default: m.RestoreBackup })));
const UploadBackup = lazy(() => dialogs().then((m) => ({ default: m.UploadBackup })));

/** What the project menus open (`?action=`): back up, upload, restore (backups-data-designer.md §2). */
export type BackupAction = 'create' | 'upload' | 'restore';
export type BackupTab = 'backups' | 'reduction';
type Row = BackupView & { time: string };
type Dialog =
  | { kind: 'create' }
  | { kind: 'upload' }
  | { kind: 'download'; record: BackupView }
  | { kind: 'restore'; record: BackupView }
  | null;

/** The rules a restore applied (§3 moduleRules), each once. */
const rulesOf = (record: BackupView) =>
  RESTORE_RULES.filter((rule) => Object.values(record.moduleRules).includes(rule));

/**
 * /app/backup?projectId=…: a project's backups and, on the 'reduction' tab, its restores (the project
 * backup dialog of §2) on the shared backup list and dialogs (components/backups). Without a project: a picker.
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
  // §6: delete is gated by backup.delete, which the administrator and the owning tenant hold, the
  // only users who reach a project's backups (the server answers 403 to anyone else).
  const mayDelete = useSessionUser() !== null;
  const projects = useQuery({
    queryKey: ['project-available'],
    queryFn: () => request<Array<{ id: string; name: string }>>('rest/spm/project/available'),
  });
  const project = projects.data?.find((p) => p.id === projectId);
  const listKey = ['backups', projectId];

  const close = () => {
    setDialog(null);
    if (action) setParam({ action: null });
  };
  const load = async (query: BackupListQuery) => {
    const filter: Record<string, unknown> = { type: tab === 'reduction' ? 'import' : 'export', status: 'succeed' };
    if (query.name) filter.name = { like: likeText(query.name) };
    if (query.from && query.to) filter.createTime = { gte: query.from, lte: query.to };
    const page = await listBackups(projectId, {
      filter,
      sort: { createTime: -1 },
      skip: query.skip,
      limit: query.limit,
    });
    const rows = page.rows.map((row) => ({ ...row, time: tab === 'reduction' ? row.updateTime : row.createTime }));
    return { rows, total: page.total };
  };
  // A backup of this project that ends resets the filter, so that it shows at the top of the list (§4).
  const subscribeReset = useCallback(
    (reset: () => void) =>
      onBackupTaskEnded((task) => {
        if (task.projectId !== projectId) return;
        reset();
        void queryClient.invalidateQueries({ queryKey: ['backups', projectId] });
      }),
    [projectId, queryClient],
  );

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
        <>
          <Tabs
            activeKey={tab}
            onChange={(key) => setParam({ tab: key === 'reduction' ? 'reduction' : null })}
            items={[
              { key: 'backups', label: <span data-testid="backup-tab-backups">{t('backups.tab.backups')}</span> },
              { key: 'reduction', label: <span data-testid="backup-tab-reduction">{t('backups.tab.reduction')}</span> },
            ]}
          />
          <BackupList<Row>
            key={`${projectId}-${tab}`}
            prefix="backup"
            queryKey={[...listKey, tab]}
            load={load}
            kinds={BACKUP_KINDS}
            timeTitle={t(tab === 'reduction' ? 'backups.restoreTime' : 'backups.time')}
            subscribeReset={subscribeReset}
            toolbar={
              <>
                <Button
                  type="primary"
                  icon={<PlusOutlined />}
                  onClick={() => setDialog({ kind: 'create' })}
                  {...testId('backup-create')}
                >
                  {t('backups.create')}
                </Button>
                <Button
                  icon={<UploadOutlined />}
                  onClick={() => setDialog({ kind: 'upload' })}
                  {...testId('backup-upload')}
                >
                  {t('backups.upload')}
                </Button>
              </>
            }
            nameExtra={(row) => row.safety && <Tag color="orange">{t('backups.safety')}</Tag>}
            extraColumns={
              tab === 'reduction'
                ? [
                    {
                      title: t('backups.rule'),
                      key: 'rule',
                      render: (_, row) =>
                        rulesOf(row).map((rule) => (
                          <Tag key={rule} data-testid={`backup-rule-${row.id}-${rule}`}>
                            {t(`backups.rule.${rule}`)}
                          </Tag>
                        )),
                    },
                  ]
                : []
            }
            actions={(row) =>
              tab === 'backups' && (
                <>
                  <Button
                    type="link"
                    size="small"
                    icon={<DownloadOutlined />}
                    onClick={() => setDialog({ kind: 'download', record: row })}
                    {...testId(`backup-download-${row.id}`)}
                  >
                    {t('backups.download')}
                  </Button>
                  <Button
                    type="link"
                    size="small"
                    icon={<RollbackOutlined />}
                    onClick={() => setDialog({ kind: 'restore', record: row })}
                    {...testId(`backup-restore-${row.id}`)}
                  >
                    {t('backups.restore')}
                  </Button>
                </>
              )
            }
            onDelete={mayDelete ? (id) => deleteBackup(projectId, id) : undefined}
            onRename={(row, name) => renameBackup(projectId, row.id, name)}
          />
        </>
      )}
      <Suspense fallback={null}>
        {projectId && dialog?.kind === 'create' && (projects.data || projects.isError) && (
          <CreateBackup projectId={projectId} projectName={project?.name ?? ''} onClose={close} />
        )}
        {projectId && dialog?.kind === 'upload' && (
          <UploadBackup
            projectId={projectId}
            onClose={close}
            onUploaded={() => void queryClient.invalidateQueries({ queryKey: listKey })}
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
