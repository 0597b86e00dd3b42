import type { BackupFailureView } from '@gantry/shared';
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../app/paths';
import { translateMessage } from '../../../i18n';
import { formatDateTime } from '../../../utils/dateTime';

/**
 * Periodic backups whose latest run failed (issue 13 §3): project, cycle, time, message; each opens
 * the project's periodic backups. Shown only when there is one.
 */
export function BackupFailures({ failures }: { failures: BackupFailureView[] }) {
  const { t } = useTranslation();
  if (failures.length === 0) return null;
  return (
    <Card title={t('dashboard.backupFailures')} data-testid="dashboard-backup-failures" size="small">
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {failures.map((failure) => (
          <li
            key={failure.cycleId}
            data-testid={`dashboard-backup-failure-${failure.cycleId}`}
            style={{ padding: '6px 0', borderBottom: '1px solid #f0f0f0' }}
          >
            <Link to={pathTo('dbBackup', { projectId: failure.projectId, tab: 'cycles' })}>{failure.projectName}</Link>
            <Typography.Text style={{ marginLeft: 8 }}>{failure.cycleName}</Typography.Text>
            <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
              {formatDateTime(failure.time)}
            </Typography.Text>
            <div>
              <Typography.Text type="danger">{translateMessage(failure.message)}</Typography.Text>
            </div>
          </li>
        ))}
      </ul>
    </Card>
  );
}
