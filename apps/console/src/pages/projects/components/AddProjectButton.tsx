import { PlusOutlined } from '@ant-design/icons';
import { grantActive, localDate } from '@gantry/shared';
import { Button, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLicenceInfo, useUnusedLicence } from '../../../services/licence';
import { PROJECT_ADD_PATH } from '../paths';

/**
 * Why a project cannot be added now, or null (console.md §6): the administrator needs the platform
 * licence (GET license/info answers 404 without one), a tenant a grant of its own that covers today.
 */
export function useAddBlocked(isAdmin: boolean): { pending: boolean; reason: string | null } {
  const { t } = useTranslation();
  const licence = useLicenceInfo({ enabled: isAdmin });
  const pool = useUnusedLicence({ target: 'project' }, { enabled: !isAdmin });
  const today = localDate(new Date());
  if (isAdmin) {
    if (licence.isPending) return { pending: true, reason: null };
    if (licence.data === null) return { pending: false, reason: t('licence.missing') };
    if (licence.data && !grantActive(licence.data.grant, today))
      return { pending: false, reason: t('licence.expired') };
    return { pending: false, reason: null };
  }
  if (pool.isPending) return { pending: true, reason: null };
  const parent = pool.data?.parent;
  if (pool.data && (!parent || !grantActive(parent, pool.data.today))) {
    return { pending: false, reason: t('project.grantMissing') };
  }
  return { pending: false, reason: null };
}

/** "Add project", disabled with the reason in a tooltip while no licence allows it. */
export function AddProjectButton({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pending, reason } = useAddBlocked(isAdmin);
  const button = (
    <Button
      type="primary"
      icon={<PlusOutlined />}
      data-testid="project-add"
      data-blocked={reason ?? undefined}
      disabled={pending || reason !== null}
      onClick={() => void navigate(PROJECT_ADD_PATH)}
    >
      {t('project.add')}
    </Button>
  );
  // a disabled button gets no mouse events: the tooltip hangs on a wrapper, always there (without a
  // title it shows nothing) so that the button is never remounted
  return (
    <Tooltip title={reason ?? undefined}>
      <span style={{ display: 'inline-block', cursor: reason ? 'not-allowed' : undefined }}>{button}</span>
    </Tooltip>
  );
}
