import { DeleteOutlined } from '@ant-design/icons';
import { BACKUP_LIMITS } from '@gantry/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Input, Modal, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../services/feedback';
import { isRequestError } from '../../services/request';
import { formatDateTime } from '../../utils/dateTime';
import { rowTestId, testId } from '../../utils/testId';
import { ScrollTable } from '../ScrollTable';
import type { AnyBackupKind } from './KindChoice';

const PAGE_SIZE = 10;
const DateRangeFilter = lazy(() => import('./DateRangeFilter').then((m) => ({ default: m.DateRangeFilter })));

/** A row of any backup list: project backups and restores, database backups, FTP backups. */
export interface BackupRow {
  id: string;
  name: string;
  item: Partial<Record<AnyBackupKind, boolean>>;
  /** Whole MB. */
  size: number;
  /** What the time column shows (backup, restore or upload time). */
  time: string;
}

/** What the filters ask for: a name part, a day range (ISO), a page. */
export interface BackupListQuery {
  name: string;
  from: string | undefined;
  to: string | undefined;
  skip: number;
  limit: number;
}

export interface BackupListPage<R> {
  rows: R[];
  total: number;
  /** A hint above the list (FTP storage not configured). */
  note?: { text: string; testId: string } | undefined;
}

/** The list of the page's rows filtered and paged on this side (lists the server does not filter). */
export function pageOf<R extends BackupRow>(rows: R[], query: BackupListQuery): BackupListPage<R> {
  const needle = query.name.toLowerCase();
  const matching = rows.filter(
    (row) =>
      (!needle || row.name.toLowerCase().includes(needle)) &&
      (!query.from || row.time >= query.from) &&
      (!query.to || row.time <= query.to),
  );
  return { rows: matching.slice(query.skip, query.skip + query.limit), total: matching.length };
}

/**
 * Every backup list (backups-data-designer.md §2): name, content, size, time and the row's actions;
 * filtered by name and time range, paged, rows selectable, a batch delete enabled once a row is
 * chosen; the name edited in place where the family allows it. Test ids `<prefix>-<what>[-<scope>]-<id>`.
 */
export function BackupList<R extends BackupRow>({
  prefix,
  scope,
  queryKey,
  load,
  kinds,
  timeTitle,
  nameExtra,
  extraColumns = [],
  actions,
  toolbar,
  onDelete,
  onRename,
  emptyText,
  subscribeReset,
}: {
  prefix: string;
  scope?: string;
  queryKey: readonly unknown[];
  load: (query: BackupListQuery) => Promise<BackupListPage<R>>;
  kinds: readonly AnyBackupKind[];
  timeTitle: string;
  nameExtra?: (row: R) => ReactNode;
  extraColumns?: ColumnsType<R>;
  actions: (row: R) => ReactNode;
  toolbar?: ReactNode;
  onDelete?: (id: string) => Promise<unknown>;
  onRename?: (row: R, name: string) => Promise<unknown>;
  emptyText?: string;
  /** Called with a function that clears the filters (a backup that ends shows at the top, §4). */
  subscribeReset?: (reset: () => void) => () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [modal, modalHolder] = Modal.useModal();
  const [name, setName] = useState('');
  const [range, setRange] = useState<[Dayjs, Dayjs] | null>(null);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const id = (what: string, rowId?: string) => [prefix, what, scope, rowId].filter(Boolean).join('-');

  const query: BackupListQuery = {
    name: name.trim(),
    from: range?.[0].startOf('day').toISOString(),
    to: range?.[1].endOf('day').toISOString(),
    skip: (page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
  };
  const list = useQuery({
    queryKey: [...queryKey, query],
    queryFn: () => load(query),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey });

  useEffect(
    () =>
      subscribeReset?.(() => {
        setName('');
        setRange(null);
        setPage(1);
      }),
    [subscribeReset],
  );

  const rename = async (row: R, next: string) => {
    const value = next.trim();
    if (!onRename || value === row.name) return;
    if (!value) {
      toast.hint(t('backup.nameRequired'));
      return;
    }
    if ([...value].length > BACKUP_LIMITS.nameMax) {
      toast.hint(t('backup.nameTooLong'));
      return;
    }
    try {
      await onRename(row, value);
      toast.success(t('backups.saved'));
      await refresh();
    } catch {
      // reported by the request layer
    }
  };

  const remove = (ids: string[]) => {
    if (!onDelete) return;
    modal.confirm({
      title: t('backups.deleteConfirm', { count: ids.length }),
      okButtonProps: testId(`${prefix}-delete-ok`, { danger: true }),
      onOk: async () => {
        let failed = false;
        for (const rowId of ids) {
          try {
            await onDelete(rowId);
          } catch {
            failed = true; // reported by the request layer
          }
        }
        setSelected([]);
        await refresh();
        if (!failed) toast.success(t(ids.length > 1 ? 'backups.batchDeleted' : 'backups.deleted'));
      },
    });
  };

  const columns: ColumnsType<R> = [
    {
      title: t('backups.name'),
      dataIndex: 'name',
      width: 200,
      render: (_, row) => (
        <Space size={4} wrap>
          <Typography.Text
            data-testid={id('name', row.id)}
            editable={
              onRename
                ? {
                    maxLength: BACKUP_LIMITS.nameMax,
                    onChange: (value) => void rename(row, value),
                    triggerType: ['icon'],
                  }
                : false
            }
          >
            {row.name}
          </Typography.Text>
          {nameExtra?.(row)}
        </Space>
      ),
    },
    {
      title: t('backups.content'),
      key: 'content',
      render: (_, row) =>
        kinds.filter((kind) => row.item[kind]).map((kind) => <Tag key={kind}>{t(`backups.kind.${kind}`)}</Tag>),
    },
    ...extraColumns,
    { title: t('backups.size'), dataIndex: 'size', width: 90, render: (size: number) => `${size} MB` },
    { title: timeTitle, dataIndex: 'time', width: 180, render: (time: string) => formatDateTime(time) },
    {
      title: t('backups.actions'),
      key: 'actions',
      width: 260,
      render: (_, row) => (
        <Space size={0} wrap>
          {actions(row)}
          {onDelete && (
            <Button
              type="link"
              size="small"
              danger
              icon={<DeleteOutlined />}
              onClick={() => remove([row.id])}
              {...testId(id('delete', row.id))}
            >
              {t('backups.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  const note = list.data?.note;
  return (
    <>
      {modalHolder}
      <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}>
        {toolbar}
        {onDelete && (
          <Button
            danger
            disabled={selected.length === 0}
            onClick={() => remove(selected)}
            {...testId(`${prefix}-batch-delete`)}
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
          data-testid={`${prefix}-search`}
        />
        <Suspense fallback={<div style={{ width: 280, height: 32 }} />}>
          <DateRangeFilter
            value={range}
            onChange={(value) => {
              setRange(value);
              setPage(1);
            }}
            testId={`${prefix}-range`}
          />
        </Suspense>
      </div>
      {note && <Alert type="info" showIcon title={note.text} style={{ marginBottom: 12 }} data-testid={note.testId} />}
      {list.isError ? (
        <Alert
          type="error"
          showIcon
          title={isRequestError(list.error) ? list.error.message : t('request.failed')}
          data-testid={id('list-error')}
        />
      ) : (
        <ScrollTable<R>
          rowKey="id"
          size="middle"
          loading={list.isFetching}
          columns={columns}
          dataSource={list.data?.rows ?? []}
          scroll={{ x: 760 }}
          rowSelection={
            onDelete ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) } : undefined
          }
          pagination={{
            current: page,
            pageSize: PAGE_SIZE,
            total: list.data?.total ?? 0,
            onChange: setPage,
            showSizeChanger: false,
          }}
          locale={emptyText ? { emptyText } : undefined}
          onRow={(row) => rowTestId(id('row', row.id))}
        />
      )}
    </>
  );
}
