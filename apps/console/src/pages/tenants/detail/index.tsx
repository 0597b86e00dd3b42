import { ArrowLeftOutlined, EditOutlined } from '@ant-design/icons';
import { sumMeasures } from '@gantry/shared';
import { Button, Card, Descriptions, Empty, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PATHS, pathTo } from '../../../app/paths';
import { GrantSummary } from '../../../components/GrantSummary';
import { useTenant, useTenantProjects } from '../../../services/tenant';
import { formatDateTime } from '../../../utils/dateTime';
import { industryText, StatusTag, typeText } from '../components/labels';
import { TenantProjectList } from '../components/TenantProjectList';

const PERMISSIONS = ['ownTemplates', 'marketTemplates', 'blankProjects'] as const;

/** /app/model/User/{id}/detail: the tenant, its grant (with what its projects hold) and its projects. */
export default function TenantDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id } = useParams();
  const tenant = useTenant(id);
  const projects = useTenantProjects(id);

  if (tenant.isPending) return <Card loading data-testid="tenant-detail-loading" />;
  const data = tenant.data;
  if (!data) return <Empty description={t('exception.notFound')} />;
  const allocated = sumMeasures((projects.data ?? []).map((p) => p.grant).filter((g) => g !== null));

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="tenant-detail">
      <Card
        title={data.name}
        extra={
          <Space>
            <Button
              icon={<ArrowLeftOutlined />}
              data-testid="tenant-detail-back"
              onClick={() => void navigate(PATHS.tenants)}
            >
              {t('tenant.back')}
            </Button>
            <Button
              type="primary"
              icon={<EditOutlined />}
              data-testid="tenant-detail-edit"
              onClick={() => void navigate(pathTo('tenantEdit', { id: data.id }))}
            >
              {t('tenant.edit')}
            </Button>
          </Space>
        }
      >
        <Descriptions column={{ xs: 1, md: 2, xl: 3 }} size="small">
          <Descriptions.Item label={t('tenant.name')}>{data.name}</Descriptions.Item>
          <Descriptions.Item label={t('tenant.userId')}>{data.id}</Descriptions.Item>
          <Descriptions.Item label={t('tenant.type')}>{typeText(t, data.type)}</Descriptions.Item>
          <Descriptions.Item label={t('tenant.industry')}>{industryText(t, data.industry)}</Descriptions.Item>
          <Descriptions.Item label={t('tenant.status')}>
            <StatusTag status={data.status} testId="tenant-detail-status" />
          </Descriptions.Item>
          <Descriptions.Item label={t('tenant.createTime')}>{formatDateTime(data.createTime)}</Descriptions.Item>
          <Descriptions.Item label={t('tenant.permissions')}>
            <Space size={[4, 4]} wrap>
              {PERMISSIONS.filter((key) => data.permissions[key]).map((key) => (
                <Tag key={key}>{t(`tenant.perm.${key}`)}</Tag>
              ))}
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label={t('tenant.logo')}>
            {data.logo ? <img src={data.logo} alt="" style={{ maxHeight: 48 }} /> : '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('tenant.remarks')} span="filled">
            {data.remarks || '-'}
          </Descriptions.Item>
        </Descriptions>
      </Card>
      <Card title={t('tenant.grant')}>
        {data.grant ? (
          <GrantSummary grant={data.grant} allocated={allocated} />
        ) : (
          <Empty description={t('tenant.noGrant')} />
        )}
      </Card>
      <Card title={t('tenant.projectsTitle', { name: data.name })}>
        <TenantProjectList projects={projects.data} loading={projects.isPending} variant="table" />
      </Card>
    </Space>
  );
}
