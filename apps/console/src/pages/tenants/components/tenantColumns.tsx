import type { TenantView } from '@gantry/shared';
import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { KeyedColumn } from '../../../components/ColumnSettings';
import { formatDateTime } from '../../../utils/dateTime';
import { industryText, StatusTag, typeText } from './labels';

/** The configurable columns of the tenant list (console.md §3): the picker shows, hides and orders them. */
export function tenantColumns(t: TFunction): KeyedColumn<TenantView>[] {
  return [
    {
      key: 'name',
      title: t('tenant.name'),
      dataIndex: 'name',
      // whole, on up to a few lines: the table fits 1,440 px with the sidebar (issue 10)
      render: (value: string) => <div style={{ maxWidth: 220, minWidth: 120, overflowWrap: 'anywhere' }}>{value}</div>,
    },
    {
      key: 'user',
      title: t('tenant.userId'),
      dataIndex: 'id',
      // a long id wraps instead of widening the table past 1,440 px
      render: (value: string) => <div style={{ maxWidth: 140, overflowWrap: 'anywhere' }}>{value}</div>,
    },
    {
      key: 'industry',
      title: t('tenant.industry'),
      dataIndex: 'industry',
      render: (value: string | null) => industryText(t, value),
    },
    { key: 'type', title: t('tenant.type'), dataIndex: 'type', render: (value: number) => typeText(t, value) },
    {
      key: 'createTime',
      title: t('tenant.createTime'),
      dataIndex: 'createTime',
      render: (value: string) => formatDateTime(value),
    },
    {
      key: 'status',
      title: t('tenant.status'),
      dataIndex: 'status',
      render: (status: boolean, tenant) => <StatusTag status={status} testId={`tenant-status-${tenant.id}`} />,
    },
    {
      key: 'remarks',
      title: t('tenant.remarks'),
      dataIndex: 'remarks',
      render: (value: string | null) => (
        <Typography.Text ellipsis={{ tooltip: value }} style={{ maxWidth: 160 }}>
          {value || '-'}
        </Typography.Text>
      ),
    },
  ];
}
