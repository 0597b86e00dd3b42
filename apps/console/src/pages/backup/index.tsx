import '../../components/backups/texts';
import { DownloadOutlined, RollbackOutlined } from '@ant-design/icons';
import { BACKUP_KINDS, RESTORE_RULES } from '@gantry/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Tabs, Tag } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { type BackupFamily, BackupFrame, BackupToolbar, useBackupPage } from '../../components/backups/BackupFrame';
import { BackupList, type BackupListQuery } from '../../components/backups/BackupList';
import type { AnyBackupKind } from '../../components/backups/KindChoice';
import { newRequestId } from '../../components/backups/newRequestId';
import type { RestoreValues } from '../../components/backups/RestoreDialog';
import {
  type BackupRecord,
  backupSizes,
  deleteBackup,
  downloadBackup,
  downloadBackupByLink,
  type ImportInput,
  listBackups,
  renameBackup,
  restorePlan,
  startBackup,
  startRestore,
  uploadBackup,
} from '../../services/backup';
import { onBackupTaskEnded, watchBackupTask } from '../../services/backupTasks';
import { toast } from '../../services/feedback';
import { likeText } from '../../services/list';
import { useSessionUser } from '../../services/session';
import { testId } from '../../utils/testId';

/** What the project menus open (`?action=`): back up, upload, restore (backups-data-designer.md §2). */
export type BackupAction = 'create' | 'upload' | 'restore';
export type BackupTab = 'backups' | 'reduction';
type Row = BackupRecord & { time: string };

const flags = (kinds: readonly string[]) => Object.fromEntries(kinds.map((kind) => [kind, true]));
/** The rules a restore applied (§3 moduleRules), each once. */
const rulesOf = (record: BackupRecord) =>
  RESTORE_RULES.filter((rule) => Object.values(record.moduleRules).includes(rule));

/** The project backups' calls behind the shared dialogs (components/backups). */
function projectFamily(
  projectId: string,
  texts: { createTitle: string; started: string },
  uploaded: () => void,
): BackupFamily<Row> {
  const input = (
    record: BackupRecord,
    { item, mongoItem, itemType, requestId }: RestoreValues<AnyBackupKind>,
  ): ImportInput => ({
    id: record.id,
    name: record.name,
    item: flags(item),
    moduleRules: itemType === undefined ? {} : Object.fromEntries(mongoItem.map((module) => [module, itemType])),
    requestId,
  });
  const started = (task: { id: string }) => {
    watchBackupTask(task.id);
    toast.success(texts.started);
  };
  return {
    prefix: 'backup',
    kinds: BACKUP_KINDS,
    createTitle: texts.createTitle,
    modulesKind: 'mongodb',
    modulesOf: (record) => Object.keys(record.moduleRules),
    sizes: async (excludedDirs) =>
      Object.fromEntries((await backupSizes(projectId, excludedDirs)).map((entry) => [entry.name, entry.size])),
    start: async (values) =>
      started(
        await startBackup(projectId, {
          name: values.name,
          item: flags(values.item),
          modules: values.mongoItem,
          excludedDirs: values.excludedDirs,
          requestId: newRequestId(),
        }),
      ),
    plan: (record, values) => restorePlan(projectId, input(record, values)),
    restore: async (record, values) => started(await startRestore(projectId, input(record, values))),
    download: (record, code, options) => downloadBackup(projectId, record.id, code, options),
    downloadByLink: (record, code, fileName) => downloadBackupByLink(projectId, record.id, code, fileName),
    upload: (file, code, options) => uploadBackup(projectId, file, code, options),
    uploaded,
  };
}

/**
 * /app/backup?projectId=…: a project's backups and, on the 'reduction' tab, its restores (the project
 * backup dialog of §2) on the shared backup page, list and dialogs (components/backups).
 */
export default function BackupPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const page = useBackupPage<Row>();
  const { projectId, params, setParam, setDialog } = page;
  const tab: BackupTab = params.get('tab') === 'reduction' ? 'reduction' : 'backups';
  // §6: delete is gated by backup.delete, which the administrator and the owning tenant hold, the
  // only users who reach a project's backups (the server answers 403 to anyone else).
  const mayDelete = useSessionUser() !== null;
  const listKey = ['backups', projectId];
  const family = projectFamily(projectId, { createTitle: t('backups.create'), started: t('backups.started') }, () => {
    void queryClient.invalidateQueries({ queryKey: listKey });
  });

  const load = async (query: BackupListQuery) => {
    const filter: Record<string, unknown> = { type: tab === 'reduction' ? 'import' : 'export' };
    if (query.name) filter.name = { like: likeText(query.name) };
    if (query.from && query.to) filter.createTime = { gte: query.from, lte: query.to };
    const found = await listBackups(projectId, {
      filter,
      sort: { createTime: -1 },
      skip: query.skip,
      limit: query.limit,
    });
    const rows = found.rows.map((row) => ({ ...row, time: tab === 'reduction' ? row.updateTime : row.createTime }));
    return { rows, total: found.total };
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
  const rowAction = (row: Row, kind: 'download' | 'restore') => (
    <Button
      type="link"
      size="small"
      icon={kind === 'download' ? <DownloadOutlined /> : <RollbackOutlined />}
      onClick={() => setDialog({ kind, row })}
      {...testId(`backup-${kind}-${row.id}`)}
    >
      {t(`backups.${kind}`)}
    </Button>
  );

  return (
    <BackupFrame title={t('project.backup')} page={page} family={family}>
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
        toolbar={<BackupToolbar prefix="backup" onDialog={(kind) => setDialog({ kind })} />}
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
              {rowAction(row, 'download')}
              {rowAction(row, 'restore')}
            </>
          )
        }
        onDelete={mayDelete ? (id) => deleteBackup(projectId, id) : undefined}
        onRename={(row, name) => renameBackup(projectId, row.id, name)}
      />
    </BackupFrame>
  );
}
