import { LICENCE_WARNING_DAYS } from '@gantry/shared';
import { Card, Col, Empty, Row, Tag, Typography } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PATHS, pathTo } from '../../../app/paths';
import { lastDay } from '../../../components/GrantSummary';
import type { Dashboard, ExpiringGrant } from '../../../services/dashboard';

const ROW: CSSProperties = {
  display: 'flex',
  justifyContent: 'space-between',
  alignItems: 'center',
  padding: '8px 0',
  borderBottom: '1px solid #f0f0f0',
};

/** How many grants of each kind the dashboard lists; the rest are on the full list (issue 10). */
export const EXPIRING_SHOWN = 5;

/** The grants, the nearest end first (then by name). */
export function nearestFirst(items: readonly ExpiringGrant[]): ExpiringGrant[] {
  return [...items].sort((a, b) => a.remainingTime - b.remainingTime || a.name.localeCompare(b.name));
}

export const grantHref = (kind: 'tenant' | 'project', id: string) =>
  pathTo(kind === 'tenant' ? 'tenantDetail' : 'projectDetail', { id });

function GrantList({ items, kind, title }: { items: ExpiringGrant[]; kind: 'tenant' | 'project'; title: string }) {
  const { t } = useTranslation();
  const shown = nearestFirst(items).slice(0, EXPIRING_SHOWN);
  return (
    <div data-testid={`dashboard-expiring-${kind}s`}>
      <Typography.Text strong>
        {title}
        {items.length > 0 ? <Typography.Text type="secondary">{` (${items.length})`}</Typography.Text> : null}
      </Typography.Text>
      {items.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dashboard.noExpiring')} />
      ) : (
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {shown.map((item) => (
            <li key={item.id} data-testid={`dashboard-expiring-${kind}-${item.id}`} style={ROW}>
              <span style={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                <Link to={grantHref(kind, item.id)} title={item.name}>
                  {item.name}
                </Link>
                <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                  {lastDay(item)}
                </Typography.Text>
              </span>
              <Tag color="orange" style={{ marginInlineEnd: 0, flex: 'none' }}>
                {t('dashboard.remaining', { days: item.remainingTime })}
              </Tag>
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
  const total = (isAdmin ? expiring.tenants.length : 0) + expiring.projects.length;
  const more = (isAdmin && expiring.tenants.length > EXPIRING_SHOWN) || expiring.projects.length > EXPIRING_SHOWN;
  return (
    <Card
      title={t('dashboard.expiring', { days: LICENCE_WARNING_DAYS })}
      data-testid="dashboard-expiring"
      extra={
        more ? (
          <Link to={PATHS.expiring} data-testid="dashboard-expiring-all">
            {t('dashboard.expiringAll', { n: total })}
          </Link>
        ) : null
      }
    >
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
