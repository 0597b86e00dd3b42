import { Alert, Card, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../../layouts/useIsMobile';
import { useCurrentUser } from '../../../services/auth';
import { FeatureSections } from './FeatureSections';

/** The page keeps its desktop layout from this width (console.md §9 minimum layout width). */
export const SERVICES_MIN_WIDTH = 1200;

/** /app/license/services (增值服务): every licensed feature, available or not, by section. */
export default function ServicesPage() {
  const { t } = useTranslation();
  const isMobile = useIsMobile();
  const current = useCurrentUser();
  // Narrower than its minimum width, the page scrolls inside its own box: the window (and the header
  // with it) never scrolls sideways (issue 10).
  return (
    <div data-testid="license-services-scroll" style={{ overflowX: 'auto' }}>
      <div data-testid="license-services-page" style={{ minWidth: isMobile ? undefined : SERVICES_MIN_WIDTH }}>
        <Card title={t('licence.servicesTitle')} style={{ marginBottom: 16 }}>
          <Typography.Text type="secondary">{t('licence.servicesIntro')}</Typography.Text>
        </Card>
        {current.isPending ? (
          <Skeleton active />
        ) : current.isError ? (
          <Alert type="error" showIcon title={t('request.failed')} />
        ) : (
          <FeatureSections features={current.data.features} />
        )}
      </div>
    </div>
  );
}
