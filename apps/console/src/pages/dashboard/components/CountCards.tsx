import { Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { SUCCESS_COLOUR } from '../../../app/theme';
import type { StatusCounts } from '../../../services/dashboard';

function CountCard({ title, counts, testId }: { title: string; counts: StatusCounts; testId: string }) {
  const { t } = useTranslation();
  const cells = [
    { key: 'total', title: t('dashboard.total'), value: counts.enabled + counts.disabled, color: undefined },
    { key: 'enabled', title: t('dashboard.enabled'), value: counts.enabled, color: SUCCESS_COLOUR },
    { key: 'disabled', title: t('dashboard.disabled'), value: counts.disabled, color: '#8c8c8c' },
  ];
  return (
    <Card size="small" title={title} data-testid={testId}>
      <Row gutter={16}>
        {cells.map((cell) => (
          <Col span={8} key={cell.key} data-testid={`${testId}-${cell.key}`} data-value={cell.value}>
            <Statistic title={cell.title} value={cell.value} styles={{ content: { color: cell.color } }} />
          </Col>
        ))}
      </Row>
    </Card>
  );
}

/** Tenants (administrator only) and projects, enabled and disabled; alone, the projects' card fills its row. */
export function CountCards({ tenants, projects }: { tenants: StatusCounts | null; projects: StatusCounts }) {
  const { t } = useTranslation();
  return (
    <Row gutter={[16, 16]}>
      {tenants ? (
        <Col xs={24} md={12}>
          <CountCard title={t('dashboard.tenants')} counts={tenants} testId="dashboard-tenants" />
        </Col>
      ) : null}
      <Col xs={24} md={tenants ? 12 : 24} data-testid="dashboard-projects-column">
        <CountCard title={t('dashboard.projects')} counts={projects} testId="dashboard-projects" />
      </Col>
    </Row>
  );
}
