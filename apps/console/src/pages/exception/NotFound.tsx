import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HOME_PATH } from '../../app/paths';

export default function NotFound() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="404"
      subTitle={<span data-testid="not-found">{t('exception.notFound')}</span>}
      extra={
        <Button type="primary" onClick={() => navigate(HOME_PATH)}>
          {t('common.backHome')}
        </Button>
      }
    />
  );
}
