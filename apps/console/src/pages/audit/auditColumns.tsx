import { Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { KeyedColumn } from '../../components/ColumnSettings';
import type { AuditEntry } from '../../services/audit';
import { formatDateTime } from '../../utils/dateTime';
import { actionText, objectTypeText } from './labels';

/** Audit columns: time, actor, action, object type, object id, address. */
export function auditColumns(t: TFunction): KeyedColumn<AuditEntry>[] {
  return [
    { key: 'at', title: t('audit.at'), dataIndex: 'at', render: (value: string) => formatDateTime(value) },
    {
      key: 'actor',
      title: t('audit.actor'),
      render: (_v, entry) => (
        <span>
          {entry.actorName}
          {entry.actorName !== entry.actorId ? (
            <Typography.Text type="secondary" style={{ marginLeft: 4 }}>
              ({entry.actorId})
            </Typography.Text>
          ) : null}
        </span>
      ),
    },
    { key: 'action', title: t('audit.action'), dataIndex: 'action', render: (value: string) => actionText(value) },
    {
      key: 'objectType',
      title: t('audit.objectType'),
      dataIndex: 'objectType',
      render: (value: string) => objectTypeText(value),
    },
    { key: 'objectId', title: t('audit.objectId'), dataIndex: 'objectId', render: (v: string | null) => v ?? '-' },
    { key: 'ip', title: t('audit.ip'), dataIndex: 'ip', render: (v: string | null) => v ?? '-' },
  ];
}
