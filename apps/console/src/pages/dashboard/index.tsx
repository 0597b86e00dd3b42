import { Card, Col, Row, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDashboard } from '../../services/dashboard';
import { useSessionUser } from '../../services/session';
import { useSettings } from '../../services/settings';
import { BackupFailures } from './components/BackupFailures';
import { CountCards } from './components/CountCards';
import { ExpiringGrants } from './components/ExpiringGrants';
import { LicenceUse } from './components/LicenceUse';
import { RecentAudit } from './components/RecentAudit';

/** Landing page after login: greeting, counts, licence use, grants about to end, recent activity. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const { data: settings } = useSettings();
  const dashboard = useDashboard();
  const product = settings?.name || t('app.defaultName');
  const isAdmin = user?.isAdmin === true;
  const data = dashboard.data;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card data-testid="dashboard">
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('dashboard.welcome', { name: user?.name || user?.username || '' })}
        </Typography.Title>
        <Typography.Paragraph>{t('dashboard.intro', { product })}</Typography.Paragraph>
        <Tag color={isAdmin ? 'blue' : 'green'}>{isAdmin ? t('dashboard.roleAdmin') : t('dashboard.roleTenant')}</Tag>
      </Card>
      {dashboard.isPending ? <Card loading data-testid="dashboard-loading" /> : null}
      {data ? (
        <>
          <CountCards tenants={data.tenants} projects={data.projects} />
          <BackupFailures failures={data.backupFailures ?? []} />
          <LicenceUse licence={data.licence} isAdmin={isAdmin} />
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={12}>
              <ExpiringGrants expiring={data.expiring} isAdmin={isAdmin} />
            </Col>
            <Col xs={24} xl={12}>
              <RecentAudit entries={data.audit} isAdmin={isAdmin} />
            </Col>
          </Row>
        </>
      ) : null}
    </Space>
  );
}
