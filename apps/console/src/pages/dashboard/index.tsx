import { Card, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../services/session';
import { useSettings } from '../../services/settings';

/** Landing page after login; real content comes with later issues. */
export default function DashboardPage() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const { data: settings } = useSettings();
  const product = settings?.name || t('app.defaultName');
  return (
    <Card data-testid="dashboard">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('dashboard.welcome', { name: user?.name || user?.username || '' })}
      </Typography.Title>
      <Typography.Paragraph>{t('dashboard.intro', { product })}</Typography.Paragraph>
      <Tag color={user?.isAdmin ? 'blue' : 'green'}>
        {user?.isAdmin ? t('dashboard.roleAdmin') : t('dashboard.roleTenant')}
      </Tag>
    </Card>
  );
}
