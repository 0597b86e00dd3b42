import './texts';
import '../../components/backups/texts';
import { DB_BACKUP_KINDS, RestoreRule } from '@gantry/shared';
import { useQueryClient } from '@tanstack/react-query';
import { notification, Tabs } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { type BackupFamily, BackupFrame, BackupToolbar, useBackupPage } from '../../components/backups/BackupFrame';
import {
  type DbBackupSource,
  dbBackupStats,
  downloadDbBackup,
  downloadDbBackupByLink,
  startDbRestore,
  startDump,
  uploadDbBackup,
} from '../../services/dbBackup';
import { toast } from '../../services/feedback';
import { DbBackupList, type DbBackupRow, dbBackupsKey } from './components/DbBackupList';
import { useDbJobs } from './components/useDbJobs';

// The periodic backups tab (issue 13 §3) loads when shown.
const CyclePanel = lazy(() => import('./components/CyclePanel').then((m) => ({ default: m.CyclePanel })));

/** What the project menus open (`?action=`): upload, back up, restore, FTP restore (§2). */
export type DbBackupAction = 'upload' | 'create' | 'restore' | 'ftpRestore';

const flags = (kinds: readonly string[]) => Object.fromEntries(kinds.map((kind) => [kind, true]));
/** A database restore takes every collection whole: rule 2, 'clear, then add' (its dialog says so). */
const WHOLE = RestoreRule.Replace;

/**
 * /app/db-backup?projectId=…: the database backup dialog (backups-data-designer.md §2), titled for
 * backup or restore: the dump backups and the FTP list on the shared backup page, list and dialogs
 * (components/backups), and the periodic backups. Jobs are polled every second; a restore shows the
 * persistent 'restoring' notice.
 */
export default function DbBackupPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const page = useBackupPage<DbBackupRow>();
  const { projectId, params, setParam, action, setDialog } = page;
  const source: DbBackupSource = params.get('tab') === 'ftp' || action === 'ftpRestore' ? 'ftp' : 'backup';
  const restoring = action === 'restore' || action === 'ftpRestore';
  const tab = params.get('tab') === 'cycles' && !action ? 'cycles' : source;
  const [notifications, notificationHolder] = notification.useNotification();
  const watch = useDbJobs(notifications, () => {
    void queryClient.invalidateQueries({ queryKey: ['db-backups', projectId] });
  });
  const family: BackupFamily<DbBackupRow> = {
    prefix: 'db',
    kinds: DB_BACKUP_KINDS,
    initialKinds: DB_BACKUP_KINDS,
    createTitle: t('dbBackups.titleBackup'),
    fixedRule: WHOLE,
    askCodeFirst: true,
    sizes: async (excludedDirs) =>
      Object.fromEntries((await dbBackupStats(projectId, excludedDirs)).map((row) => [row.name, row.size])),
    start: async ({ name, item, excludedDirs }) => {
      const { id } = await startDump(projectId, { name, item: flags(item), excludedDirs });
      toast.success(t('backups.started'));
      watch(projectId, id, 'dump');
    },
    restore: async (row, { item }) =>
      watch(projectId, (await startDbRestore(projectId, source, row.id, flags(item))).id, 'restore'),
    download: (row, code, options) => downloadDbBackup(projectId, source, row.id, code, options),
    downloadByLink: (row, code, fileName) => downloadDbBackupByLink(projectId, source, row.id, code, fileName),
    upload: (file, code, options) => uploadDbBackup(projectId, file, code, options),
    uploaded: () => void queryClient.invalidateQueries({ queryKey: dbBackupsKey(projectId, 'backup') }),
  };

  return (
    <BackupFrame
      title={<span data-testid="db-title">{t(restoring ? 'dbBackups.titleRestore' : 'dbBackups.titleBackup')}</span>}
      page={page}
      family={family}
    >
      {notificationHolder}
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
          toolbar={<BackupToolbar prefix="db" onDialog={(kind) => setDialog({ kind })} />}
          onDownload={(row) => setDialog({ kind: 'download', row })}
          onRestore={(row) => setDialog({ kind: 'restore', row })}
        />
      )}
    </BackupFrame>
  );
}
