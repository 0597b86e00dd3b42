import { Card, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS } from '../../../app/paths';
import type { AuditEntry } from '../../../services/audit';
import { formatDateTime } from '../../../utils/dateTime';
import { actionText, objectTypeText } from '../../audit/labels';

/** The latest audit entries: who did what to which object, when and from where. */
export function RecentAudit({ entries, isAdmin }: { entries: AuditEntry[]; isAdmin: boolean }) {
  const { t } = useTranslation();
  return (
    <Card
      title={t('dashboard.audit')}
      data-testid="dashboard-audit"
      extra={isAdmin ? <Link to={PATHS.audit}>{t('audit.more')}</Link> : null}
    >
      {entries.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {entries.map((entry) => (
            <li
              key={entry.id}
              data-testid={`dashboard-audit-${entry.id}`}
              style={{ padding: '8px 0', borderBottom: '1px solid #f0f0f0' }}
            >
              <div>
                <Typography.Text strong>{entry.actorName}</Typography.Text> {actionText(entry.action)}{' '}
                <Typography.Text type="secondary">
                  {objectTypeText(entry.objectType)}
                  {entry.objectId ? ` ${entry.objectId}` : ''}
                </Typography.Text>
              </div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {formatDateTime(entry.at)}
                {entry.ip ? ` · ${entry.ip}` : ''}
              </Typography.Text>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
