import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import type { StatusCounts } from '../../../services/dashboard';

function CountCard({ title, counts, testId }: { title: string; counts: StatusCounts; testId: string }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={title} data-testid={testId}>
      <Row gutter={16}>
        <Col span={8}>
          <Statistic title={t('dashboard.projects') === title ? title : title} value={counts.enabled + counts.disabled} />
        </Col>
        <Col span={8}>
          <Statistic
            title={t('dashboard.enabled')}
            value={counts.enabled}
            valueStyle={{ color: '#52c41a' }}
            data-testid={`${testId}-enabled`}
          />
        </Col>
        <Col span={8}>
          <Statistic title={t('dashboard.disabled')} value={counts.disabled} data-testid={`${testId}-disabled`} />
        </Col>
      </Row>
    </Card>
  );
}

/** Tenants (administrator only) and projects, enabled and disabled. */
export function CountCards({ tenants, projects }: { tenants: StatusCounts | null; projects: StatusCounts }) {
  const { t } = useTranslation();
  return (
    <Row gutter={[16, 16]}>
      {tenants ? (
        <Col xs={24} md={12}>
          <CountCard title={t('dashboard.tenants')} counts={tenants} testId="dashboard-tenants" />
        </Col>
      ) : null}
      <Col xs={24} md={12}>
        <CountCard title={t('dashboard.projects')} counts={projects} testId="dashboard-projects" />
      </Col>
    </Row>
  );
}
