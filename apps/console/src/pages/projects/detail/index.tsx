import { EditOutlined, FolderOpenOutlined, GlobalOutlined, SettingOutlined, TableOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Result, Skeleton, Space, Tag } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { pathTo } from '../../../app/paths';
import { openSite } from '../../../components/OpenSite';
import { getProject } from '../../../services/project';
import { formatDateTime } from '../../../utils/dateTime';
import { LicenceDetail } from '../components/LicenceDetail';
import { industryLabel } from '../options';
import { deviceStats } from '../projectNumbers';
import { ProjectData } from './ProjectData';

// The extension fields' values (the field registry) load after the project's own details show.
const ExtensionValues = lazy(() =>
  import('../../project-expand/ExtensionValues').then((m) => ({ default: m.ExtensionValues })),
);

import '../tables/texts';

const yesNo = (value: boolean, t: (key: 'common.yes' | 'common.no') => string) => t(value ? 'common.yes' : 'common.no');

/** /app/model/Project/{id}/detail: the project, read-only, with its licence. */
export default function ProjectDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const query = useQuery({ queryKey: ['project', id], queryFn: () => getProject(id) });

  if (query.isPending) return <Skeleton active />;
  const project = query.data;
  if (!project) return <Result status="404" title={t('project.notFound')} />;
  const devices = deviceStats(project._stats_);
  const features = project.advanced.mediaLibraryPublicDirFeature;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="project-detail">
      {/* Actions above the details, wrapping: in the card's header they ran off a phone's screen. */}
      <Card title={project.name}>
        <Space wrap data-testid="project-detail-actions" style={{ marginBottom: 16 }}>
          <Button
            icon={<SettingOutlined />}
            data-testid="project-detail-admin"
            onClick={() => openSite(project, 'admin')}
          >
            {t('project.openAdmin')}
          </Button>
          <Button
            icon={<GlobalOutlined />}
            data-testid="project-detail-front"
            onClick={() => openSite(project, 'front')}
          >
            {t('project.openFront')}
          </Button>
          <Button
            icon={<FolderOpenOutlined />}
            data-testid="project-detail-media"
            onClick={() => void navigate(pathTo('projectMedia', { id: project.id }))}
          >
            {t('media.page.open')}
          </Button>
          <Button
            icon={<TableOutlined />}
            data-testid="project-detail-tables"
            onClick={() => void navigate(pathTo('projectTables', { id: project.id }))}
          >
            {t('tables.ui.title')}
          </Button>
          <Button
            type="primary"
            icon={<EditOutlined />}
            data-testid="project-detail-edit"
            onClick={() => void navigate(pathTo('projectEdit', { id: project.id }))}
          >
            {t('project.edit')}
          </Button>
        </Space>
        <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }}>
          <Descriptions.Item label={t('project.id')}>{project.id}</Descriptions.Item>
          <Descriptions.Item label={t('project.name')}>{project.name}</Descriptions.Item>
          <Descriptions.Item label={t('project.status')}>
            <Tag color={project.status ? 'green' : 'default'}>
              {t(project.status ? 'project.enabled' : 'project.disabled')}
            </Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('project.owner')}>{project.user.name}</Descriptions.Item>
          <Descriptions.Item label={t('project.industry')}>{industryLabel(t, project.industry)}</Descriptions.Item>
          <Descriptions.Item label={t('project.createTime')}>{formatDateTime(project.createTime)}</Descriptions.Item>
          <Descriptions.Item label={t('project.projectType')}>
            {t(project.projectType === 'template' ? 'project.type.template' : 'project.type.blank')}
            {project.type ? ` (${project.type})` : ''}
          </Descriptions.Item>
          <Descriptions.Item label={t('project.hasSSO')}>{yesNo(project.hasSSO, t)}</Descriptions.Item>
          <Descriptions.Item label={t('project.online')}>{yesNo(project.online, t)}</Descriptions.Item>
          <Descriptions.Item label={t('project.domain')}>{project.domain || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('project.isUseDomain')}>{yesNo(project.isUseDomain, t)}</Descriptions.Item>
          <Descriptions.Item label={t('project.isUseHttps')}>{yesNo(project.isUseHttps, t)}</Descriptions.Item>
          <Descriptions.Item label={t('project.certificates')}>
            {project.certificate ? `${project.certificate.key}, ${project.certificate.pem}` : '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('project.port')}>{project.port ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('project.planId')}>{project.planId || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('project.bgColor')}>{project.bgColor || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('project.deviceStats')}>
            <span data-testid="project-detail-devices">{t('project.devices', devices)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('project.publicDir')}>
            {project.advanced.mediaLibraryPublicDirEnable
              ? features.map((f) => t(`settings.feature.${f}`)).join('、') || t('common.yes')
              : t('common.no')}
          </Descriptions.Item>
          <Descriptions.Item label={t('project.remarks')} span={3}>
            {project.remarks || '-'}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Suspense fallback={null}>
        <ExtensionValues project={project} />
      </Suspense>
      <Card title={t('project.licenceDetail')}>
        <LicenceDetail project={project} />
      </Card>
      <ProjectData projectId={project.id} />
    </Space>
  );
}
