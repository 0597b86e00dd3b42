import { PlusOutlined } from '@ant-design/icons';
import { grantActive } from '@gantry/shared';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PATHS } from '../../../app/paths';
import { BlockedTooltip } from '../../../components/LicenceStatus';
import { useLicenceBlock } from '../../../components/LicenceStatus/useLicenceBlock';
import { useUnusedLicence } from '../../../services/licence';

/**
 * Why a project cannot be added now, or null (console.md §6): the administrator needs a platform
 * licence that is valid now (else its reason), a tenant a grant of its own that covers today.
 */
export function useAddBlocked(isAdmin: boolean): { pending: boolean; reason: string | null } {
  const { t } = useTranslation();
  const platform = useLicenceBlock(isAdmin);
  const pool = useUnusedLicence({ target: 'project' }, { enabled: !isAdmin });
  if (isAdmin) return platform;
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
  return (
    <BlockedTooltip reason={reason}>
      <Button
        type="primary"
        icon={<PlusOutlined />}
        data-testid="project-add"
        data-blocked={reason ?? undefined}
        disabled={pending || reason !== null}
        onClick={() => void navigate(PATHS.projectAdd)}
      >
        {t('project.add')}
      </Button>
    </BlockedTooltip>
  );
}
