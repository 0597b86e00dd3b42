import type { TenantView } from '@gantry/shared';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTenantProjects } from '../../../services/tenant';
import { TenantProjectList } from './TenantProjectList';

/** Large screens: the tenant's projects in a modal. */
export function ProjectsModal({ tenant, onClose }: { tenant: TenantView; onClose: () => void }) {
  const { t } = useTranslation();
  const projects = useTenantProjects(tenant.id);
  return (
    <Modal open title={t('tenant.projectsTitle', { name: tenant.name })} footer={null} width={720} onCancel={onClose}>
      <div data-testid="tenant-projects-modal">
        <TenantProjectList projects={projects.data} loading={projects.isPending} variant="table" />
      </div>
    </Modal>
  );
}
