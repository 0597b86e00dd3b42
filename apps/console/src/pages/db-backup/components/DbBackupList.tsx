import { DeleteOutlined, DownloadOutlined, RollbackOutlined, WarningOutlined } from '@ant-design/icons';
import { type BackupWarningView, DB_BACKUP_KINDS, type DbBackupItem } from '@gantry/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Space, Table, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { type DbBackupSource, deleteDbBackup, listDbBackups, listFtpBackups } from '../../../services/dbBackup';
import { toast } from '../../../services/feedback';
import { isRequestError } from '../../../services/request';
import { formatDateTime } from '../../../utils/dateTime';
import { rowTestId, testId } from '../../../utils/testId';
import { warningText } from './warningText';

/** A row of either list: a database backup (§3) or an FTP backup record. */
export interface DbBackupRow {
  id: string;
  name: string;
  item: DbBackupItem;
  time: string;
  fileSize: number;
  /** A backup that succeeded with a problem (its FTP copy failed). */
  warning?: BackupWarningView | undefined;
}

interface ListAnswer {
  rows: DbBackupRow[];
  /** The FTP list only: false when FTP storage is not configured. */
  configured: boolean;
}

export const dbBackupsKey = (projectId: string, source: DbBackupSource) => ['db-backups', projectId, source];

/**
 * One list of the database backup dialog: the dump backups (type dump, status success) or what the
 * FTP server holds; each row downloads, restores or is deleted (one DELETE per row).
 */
export function DbBackupList({
  projectId,
  source,
  onDownload,
  onRestore,
}: {
  projectId: string;
  source: DbBackupSource;
  onDownload: (row: DbBackupRow) => void;
  onRestore: (row: DbBackupRow) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [modal, modalHolder] = Modal.useModal();
  const list = useQuery({
    queryKey: dbBackupsKey(projectId, source),
    queryFn: async (): Promise<ListAnswer> => {
      if (source === 'ftp') {
        const answer = await listFtpBackups(projectId);
        return { rows: answer.rows.map((row) => ({ ...row, time: row.uploadTime })), configured: answer.configured };
      }
      const page = await listDbBackups(projectId);
      return { rows: page.rows.map((row) => ({ ...row, time: row.updateTime })), configured: true };
    },
    retry: false,
  });

  const remove = (row: DbBackupRow) => {
    modal.confirm({
      title: t('dbBackups.deleteConfirm', { name: row.name }),
      okButtonProps: testId('db-delete-ok', { danger: true }),
      onOk: async () => {
        try {
          await deleteDbBackup(projectId, source, row.id);
          toast.success(t('dbBackups.deleted'));
        } catch {
          // reported by the request layer (the status as an error toast)
        }
        await queryClient.invalidateQueries({ queryKey: dbBackupsKey(projectId, source) });
      },
    });
  };

  const columns: ColumnsType<DbBackupRow> = [
    {
      title: t('dbBackups.name'),
      dataIndex: 'name',
      render: (name: string, row) => (
        <Space size={6}>
          <span data-testid={`db-name-${source}-${row.id}`}>{name}</span>
          {row.warning && (
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
          )}
        </Space>
      ),
    },
    {
      title: t('dbBackups.content'),
      key: 'content',
      render: (_, row) =>
        DB_BACKUP_KINDS.filter((kind) => row.item[kind]).map((kind) => (
          <Tag key={kind}>{t(`dbBackups.kind.${kind}`)}</Tag>
        )),
    },
    { title: t('dbBackups.size'), dataIndex: 'fileSize', width: 90, render: (size: number) => `${size} MB` },
    {
      title: t(source === 'ftp' ? 'dbBackups.uploadTime' : 'dbBackups.time'),
      dataIndex: 'time',
      width: 180,
      render: (time: string) => formatDateTime(time),
    },
    {
      title: t('dbBackups.actions'),
      key: 'actions',
      width: 260,
      render: (_, row) => (
        <Space size={0} wrap>
          <Button
            type="link"
            size="small"
            icon={<DownloadOutlined />}
            onClick={() => onDownload(row)}
            {...testId(`db-download-${source}-${row.id}`)}
          >
            {t('dbBackups.download')}
          </Button>
          <Button
            type="link"
            size="small"
            icon={<RollbackOutlined />}
            onClick={() => onRestore(row)}
            {...testId(`db-restore-${source}-${row.id}`)}
          >
            {t('dbBackups.restore')}
          </Button>
          <Button
            type="link"
            size="small"
            danger
            icon={<DeleteOutlined />}
            onClick={() => remove(row)}
            {...testId(`db-delete-${source}-${row.id}`)}
          >
            {t('dbBackups.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  if (list.isError) {
    const message = isRequestError(list.error) ? list.error.message : t('dbBackups.failed');
    return <Alert type="error" showIcon message={message} data-testid={`db-list-error-${source}`} />;
  }
  return (
    <>
      {modalHolder}
      {list.data?.configured === false && (
        <Alert
          type="info"
          showIcon
          message={t('dbBackup.ftpNotConfiguredHint')}
          style={{ marginBottom: 12 }}
          data-testid="db-ftp-not-configured"
        />
      )}
      <Table<DbBackupRow>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.rows ?? []}
        scroll={{ x: 760 }}
        pagination={{ pageSize: 10, showSizeChanger: false, hideOnSinglePage: true }}
        locale={{ emptyText: t(source === 'ftp' ? 'dbBackups.ftpEmpty' : 'dbBackups.empty') }}
        onRow={(row) => rowTestId(`db-row-${source}-${row.id}`)}
      />
    </>
  );
}
