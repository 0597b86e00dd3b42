import { DeleteOutlined, DownloadOutlined, PlusOutlined, RollbackOutlined, UploadOutlined } from '@ant-design/icons';
import { BACKUP_KINDS, BACKUP_LIMITS, type BackupView } from '@gantry/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Input, Modal, Space, Table, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteBackup, listBackups, renameBackup } from '../../../services/backup';
import { onBackupTaskEnded } from '../../../services/backupTasks';
import { toast } from '../../../services/feedback';
import { likeText } from '../../../services/list';
import { reportError } from '../../../services/request';
import { useSessionUser } from '../../../services/session';
import { formatDateTime } from '../../../utils/dateTime';
import { rowTestId, testId } from '../../../utils/testId';

export type BackupTab = 'backups' | 'reduction';
const PAGE_SIZE = 10;
export interface BackupListProps {
  projectId: string;
  tab: BackupTab;
  onTab: (tab: BackupTab) => void;
  onCreate: () => void;
  onUpload: () => void;
  onDownload: (record: BackupView) => void;
  onRestore: (record: BackupView) => void;
}

/**
 * The project backup dialog's content (backups-data-designer.md §2): the backups (type export) or,
 * on the 'reduction' tab, the restores (type import), newest first, filtered by name and time range,
 * paged; batch delete once a row is chosen; the name edited in place (the only editable field).
 */
export function BackupList({ projectId, tab, onTab, onCreate, onUpload, onDownload, onRestore }: BackupListProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [modal, modalHolder] = Modal.useModal();
  const [name, setName] = useState('');
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  // §6: delete is gated by backup.delete, which the administrator and the owning tenant hold, the
  // only users who reach a project's backups (the server answers 403 to anyone else).
  const mayDelete = useSessionUser() !== null;

  const type = tab === 'reduction' ? 'import' : 'export';
  const filter: Record<string, unknown> = { type, status: 'succeed' };
  if (name.trim()) filter.name = { like: likeText(name.trim()) };
  if (range)
    filter.createTime = { gte: range[0].startOf('day').toISOString(), lte: range[1].endOf('day').toISOString() };
  const queryKey = ['backups', projectId, filter, page];
  const list = useQuery({
    queryKey,
    queryFn: () =>
      listBackups(projectId, { filter, sort: { createTime: -1 }, skip: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['backups', projectId] });

  // A backup that ends resets the filter, so that it shows at the top of the list (§4).
  useEffect(
    () =>
      onBackupTaskEnded((task) => {
        if (task.projectId !== projectId) return;
        setName('');
        setRange(null);
        setPage(1);
        void queryClient.invalidateQueries({ queryKey: ['backups', projectId] });
      }),
    [projectId, queryClient],
  );

  const rename = async (record: BackupView, next: string) => {
    const value = next.trim();
    if (value === record.name) return;
    if (!value) {
      toast.error(t('backup.nameRequired'));
      return;
    }
    if ([...value].length > BACKUP_LIMITS.nameMax) {
      toast.error(t('backup.nameTooLong'));
      return;
    }
    try {
      await renameBackup(projectId, record.id, value);
      toast.success(t('backups.saved'));
      await refresh();
    } catch {
      // reported by the request layer
    }
  };

  const remove = (ids: string[]) => {
    modal.confirm({
      title: t('backups.deleteConfirm', { count: ids.length }),
      okButtonProps: testId('backup-delete-ok', { danger: true }),
      onOk: async () => {
        let failed = false;
        for (const id of ids) {
          try {
            await deleteBackup(projectId, id);
          } catch (error) {
            failed = true;
            reportError(error);
          }
        }
        setSelected([]);
        await refresh();
        if (!failed) toast.success(t(ids.length > 1 ? 'backups.batchDeleted' : 'backups.deleted'));
      },
    });
  };

  const columns: ColumnsType<BackupView> = [
    {
      title: t('backups.name'),
      dataIndex: 'name',
      render: (_, record) => (
        <Space size={4} wrap>
          <Typography.Text
            data-testid={`backup-name-${record.id}`}
            editable={{
              maxLength: BACKUP_LIMITS.nameMax,
              onChange: (value) => void rename(record, value),
              triggerType: ['icon'],
            }}
          >
            {record.name}
          </Typography.Text>
          {record.safety && <Tag color="orange">{t('backups.safety')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('backups.content'),
      key: 'content',
      render: (_, record) =>
        BACKUP_KINDS.filter((kind) => record.item[kind]).map((kind) => (
          <Tag key={kind}>{t(`backups.kind.${kind}`)}</Tag>
        )),
    },
    { title: t('backups.size'), dataIndex: 'size', width: 90, render: (size: number) => `${size} MB` },
    {
      title: t(tab === 'reduction' ? 'backups.restoreTime' : 'backups.time'),
      key: 'time',
      width: 180,
      render: (_, record) => formatDateTime(tab === 'reduction' ? record.updateTime : record.createTime),
    },
    {
      title: t('backups.actions'),
      key: 'actions',
      width: 260,
      render: (_, record) => (
        <Space size={0} wrap>
          {tab === 'backups' && (
            <>
              <Button
                type="link"
                size="small"
                icon={<DownloadOutlined />}
                onClick={() => onDownload(record)}
                {...testId(`backup-download-${record.id}`)}
              >
                {t('backups.download')}
              </Button>
              <Button
                type="link"
                size="small"
                icon={<RollbackOutlined />}
                onClick={() => onRestore(record)}
                {...testId(`backup-restore-${record.id}`)}
              >
                {t('backups.restore')}
              </Button>
            </>
          )}
          {mayDelete && (
            <Button
              type="link"
              size="small"
              danger
              icon={<DeleteOutlined />}
              onClick={() => remove([record.id])}
              {...testId(`backup-delete-${record.id}`)}
            >
              {t('backups.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      {modalHolder}
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          onTab(key === 'reduction' ? 'reduction' : 'backups');
          setSelected([]);
          setPage(1);
        }}
        items={[
          { key: 'backups', label: <span data-testid="backup-tab-backups">{t('backups.tab.backups')}</span> },
          { key: 'reduction', label: <span data-testid="backup-tab-reduction">{t('backups.tab.reduction')}</span> },
        ]}
      />
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={onCreate} {...testId('backup-create')}>
          {t('backups.create')}
        </Button>
        <Button icon={<UploadOutlined />} onClick={onUpload} {...testId('backup-upload')}>
          {t('backups.upload')}
        </Button>
        {mayDelete && (
          <Button
            danger
            disabled={selected.length === 0}
            onClick={() => remove(selected)}
            {...testId('backup-batch-delete')}
          >
            {t('backups.batchDelete')}
          </Button>
        )}
        <Input.Search
          allowClear
          placeholder={t('backups.search')}
          style={{ width: 220, maxWidth: '100%' }}
          value={name}
          onChange={(event) => {
            setName(event.target.value);
            setPage(1);
          }}
          data-testid="backup-search"
        />
        <DatePicker.RangePicker
          value={range}
          onChange={(value) => {
            setRange(value?.[0] && value[1] ? [value[0], value[1]] : null);
            setPage(1);
          }}
          style={{ maxWidth: '100%' }}
          data-testid="backup-range"
        />
      </div>
      <Table<BackupView>
        rowKey="id"
        size="middle"
        loading={list.isFetching}
        columns={columns}
        dataSource={list.data?.rows ?? []}
        scroll={{ x: 760 }}
        rowSelection={
          mayDelete ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) } : undefined
        }
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: list.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        onRow={(record) => rowTestId(`backup-row-${record.id}`)}
      />
    </>
  );
}
