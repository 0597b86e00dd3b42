import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../services/auth';

/**
 * An evaluation install (no vendor licence key configured on the server) accepts licences signed
 * with the public development key: said on every signed-in page of the administrator, who can
 * configure the key. Tenants do not see it (issue 32: it names the server's setting, theirs to
 * neither see nor change). Learnt from `login/current/user` (`evaluation`), which the layouts read anyway.
 */
export function EvaluationBanner() {
  const { t } = useTranslation();
  const { data } = useCurrentUser();
  if (!data?.evaluation || !data.isAdmin) return null;
  return (
    <Alert
      type="info"
      showIcon
      banner
      data-testid="evaluation-banner"
      title={t('licence.evaluation')}
      style={{ marginBottom: 16 }}
    />
  );
}
