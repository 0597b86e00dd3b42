import { DownloadOutlined, RollbackOutlined, WarningOutlined } from '@ant-design/icons';
import { type BackupWarningView, DB_BACKUP_KINDS, type DbBackupItem } from '@gantry/shared';
import { Button, Tag, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BackupList, type BackupListQuery, pageOf } from '../../../components/backups/BackupList';
import { type DbBackupSource, deleteDbBackup, listDbBackups, listFtpBackups } from '../../../services/dbBackup';
import { likeText } from '../../../services/list';
import { testId } from '../../../utils/testId';
import { warningText } from './warningText';

/** A row of either list: a database backup (§3) or an FTP backup record. */
export interface DbBackupRow {
  id: string;
  name: string;
  item: DbBackupItem;
  time: string;
  size: number;
  /** A backup that succeeded with a problem (its FTP copy failed). */
  warning?: BackupWarningView | undefined;
}

export const dbBackupsKey = (projectId: string, source: DbBackupSource) => ['db-backups', projectId, source];

/**
 * One list of the database backup dialog on the shared backup list: the dump backups (type dump,
 * status success, filtered by the server) or what the FTP server holds (filtered here).
 */
export function DbBackupList({
  projectId,
  source,
  toolbar,
  onDownload,
  onRestore,
}: {
  projectId: string;
  source: DbBackupSource;
  toolbar: ReactNode;
  onDownload: (row: DbBackupRow) => void;
  onRestore: (row: DbBackupRow) => void;
}) {
  const { t } = useTranslation();
  const load = async (query: BackupListQuery) => {
    if (source === 'ftp') {
      const answer = await listFtpBackups(projectId);
      const rows = answer.rows.map((row) => ({ ...row, time: row.uploadTime, size: row.fileSize }));
      const note = answer.configured
        ? undefined
        : { text: t('dbBackup.ftpNotConfiguredHint'), testId: 'db-ftp-not-configured' };
      return { ...pageOf(rows, query), note };
    }
    const filter: Record<string, unknown> = {};
    if (query.name) filter.name = { like: likeText(query.name) };
    if (query.from && query.to) filter.createTime = { gte: query.from, lte: query.to };
    const page = await listDbBackups(projectId, { filter, skip: query.skip, limit: query.limit });
    return { rows: page.rows.map((row) => ({ ...row, time: row.updateTime, size: row.fileSize })), total: page.total };
  };

  const action = (what: 'download' | 'restore', row: DbBackupRow, icon: ReactNode, onClick: () => void) => (
    <Button type="link" size="small" icon={icon} onClick={onClick} {...testId(`db-${what}-${source}-${row.id}`)}>
      {t(`backups.${what}`)}
    </Button>
  );
  return (
    <BackupList<DbBackupRow>
      prefix="db"
      scope={source}
      queryKey={dbBackupsKey(projectId, source)}
      load={load}
      kinds={DB_BACKUP_KINDS}
      timeTitle={t(source === 'ftp' ? 'dbBackups.uploadTime' : 'backups.time')}
      toolbar={toolbar}
      emptyText={t(source === 'ftp' ? 'dbBackups.ftpEmpty' : 'dbBackups.empty')}
      nameExtra={(row) =>
        row.warning && (
          <Tooltip title={warningText(row.warning)}>
            <Tag
              color="warning"
              icon={<WarningOutlined />}
              data-testid={`db-warning-${source}-${row.id}`}
              aria-label={warningText(row.warning)}
            >
              {t('dbBackups.warning')}
            </Tag>
          </Tooltip>
        )
      }
      actions={(row) => (
        <>
          {action('download', row, <DownloadOutlined />, () => onDownload(row))}
          {action('restore', row, <RollbackOutlined />, () => onRestore(row))}
        </>
      )}
      onDelete={(id) => deleteDbBackup(projectId, source, id)}
    />
  );
}
