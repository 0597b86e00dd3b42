import type { ProjectView } from '@gantry/shared';
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { LicenceDetail } from './LicenceDetail';

/** The licence detail of one project, in a modal (card "details" and the list's licence action). */
export function LicenceModal({ project, onClose }: { project: ProjectView | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open={project !== null}
      onCancel={onClose}
      footer={null}
      width={760}
      title={project ? t('project.licenceOf', { name: project.name }) : undefined}
      data-testid="project-licence-modal"
      destroyOnHidden
    >
      {project ? <LicenceDetail project={project} /> : null}
    </Modal>
  );
}
