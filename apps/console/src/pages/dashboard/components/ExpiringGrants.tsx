import { LICENCE_WARNING_DAYS } from '@gantry/shared';
import { Card, Col, Empty, Row, Tag, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { lastDay } from '../../../components/GrantSummary';
import type { Dashboard, ExpiringGrant } from '../../../services/dashboard';

const ROW: CSSProperties = {
  display: 'flex',
  justifyContent: 'space-between',
  alignItems: 'center',
  padding: '8px 0',
  borderBottom: '1px solid #f0f0f0',
};

function GrantList({ items, kind, title }: { items: ExpiringGrant[]; kind: 'tenant' | 'project'; title: string }) {
  const { t } = useTranslation();
  const href = (id: string) =>
    kind === 'tenant'
      ? `/app/model/User/${encodeURIComponent(id)}/detail`
      : `/app/model/Project/${encodeURIComponent(id)}/detail`;
  return (
    <div data-testid={`dashboard-expiring-${kind}s`}>
      <Typography.Text strong>{title}</Typography.Text>
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.noExpiring')} />
      ) : (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {items.map((item) => (
            <li key={item.id} data-testid={`dashboard-expiring-${kind}-${item.id}`} style={ROW}>
              <span>
                <Link to={href(item.id)}>{item.name}</Link>
                <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                  {lastDay(item)}
                </Typography.Text>
              </span>
              <Tag color="orange">{t('dashboard.remaining', { days: item.remainingTime })}</Tag>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Tenants (administrator) and projects whose grant ends within LICENCE_WARNING_DAYS. */
export function ExpiringGrants({ expiring, isAdmin }: { expiring: Dashboard['expiring']; isAdmin: boolean }) {
  const { t } = useTranslation();
  return (
    <Card title={t('dashboard.expiring', { days: LICENCE_WARNING_DAYS })} data-testid="dashboard-expiring">
      <Row gutter={[16, 16]}>
        {isAdmin ? (
          <Col xs={24} md={12}>
            <GrantList items={expiring.tenants} kind="tenant" title={t('dashboard.expiringTenants')} />
          </Col>
        ) : null}
        <Col xs={24} md={isAdmin ? 12 : 24}>
          <GrantList items={expiring.projects} kind="project" title={t('dashboard.expiringProjects')} />
        </Col>
      </Row>
    </Card>
  );
}
