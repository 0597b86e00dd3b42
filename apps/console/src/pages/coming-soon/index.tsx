import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePageRoute } from '../../app/RouteGuard';

/** Placeholder for pages of later issues, so that every menu entry leads somewhere. */
export default function ComingSoon() {
  const { t } = useTranslation();
  const page = usePageRoute();
  return (
    <Card title={page ? t(page.title) : undefined}>
      <Empty data-testid="coming-soon" description={t('exception.comingSoon')} />
    </Card>
  );
}
