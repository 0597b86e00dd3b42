import { LICENCE_WARNING_DAYS } from '@gantry/shared';
import { Card, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { lastDay } from '../../components/GrantSummary';
import { type ExpiringGrant, useDashboard } from '../../services/dashboard';
import { useSessionUser } from '../../services/session';
import { rowTestId } from '../../utils/testId';
import { grantHref, nearestFirst } from './components/ExpiringGrants';

function GrantTable({
  kind,
  items,
  loading,
}: {
  kind: 'tenant' | 'project';
  items: ExpiringGrant[];
  loading: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Card
      title={`${t(kind === 'tenant' ? 'dashboard.expiringTenants' : 'dashboard.expiringProjects')} · ${t('dashboard.expiring', { days: LICENCE_WARNING_DAYS })}`}
    >
      <Table<ExpiringGrant>
        rowKey="id"
        size="middle"
        loading={loading}
        data-testid={`expiring-${kind}s`}
        dataSource={nearestFirst(items)}
        pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
        onRow={(row) => rowTestId(`expiring-${kind}-${row.id}`)}
        columns={[
          {
            key: 'name',
            title: t('tenant.name'),
            ellipsis: { showTitle: true },
            render: (_v, row) => <Link to={grantHref(kind, row.id)}>{row.name}</Link>,
          },
          { key: 'end', title: t('dashboard.endDay'), width: 130, render: (_v, row) => lastDay(row) },
          {
            key: 'left',
            title: t('dashboard.daysLeft'),
            width: 150,
            render: (_v, row) => <Tag color="orange">{t('dashboard.remaining', { days: row.remainingTime })}</Tag>,
          },
        ]}
      />
    </Card>
  );
}

/** /app/dashboard/expiring: every grant ending within LICENCE_WARNING_DAYS, the nearest first. */
export default function ExpiringPage() {
  const isAdmin = useSessionUser()?.isAdmin === true;
  const dashboard = useDashboard();
  const expiring = dashboard.data?.expiring ?? { tenants: [], projects: [] };
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="expiring-page">
      {isAdmin ? <GrantTable kind="tenant" items={expiring.tenants} loading={dashboard.isPending} /> : null}
      <GrantTable kind="project" items={expiring.projects} loading={dashboard.isPending} />
    </Space>
  );
}
