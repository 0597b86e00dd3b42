import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HOME_PATH } from '../../app/paths';

/** Shown for any route the user may not see (console.md §2, §6). */
export default function NoPermission() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title="403"
      subTitle={<span data-testid="no-permission">{t('exception.noPermission')}</span>}
      extra={
        <Button type="primary" onClick={() => navigate(HOME_PATH)}>
          {t('common.backHome')}
        </Button>
      }
    />
  );
}
