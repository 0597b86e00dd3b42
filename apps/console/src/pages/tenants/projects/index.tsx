import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { PATHS } from '../../../app/paths';
import { useTenant, useTenantProjects } from '../../../services/tenant';
import { TenantProjectList } from '../components/TenantProjectList';

/** /app/model/User/{id}/project?name=…: a tenant's projects as cards with a back button (small screens). */
export default function TenantProjectsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id } = useParams();
  const [params] = useSearchParams();
  // Opened by its address (no ?name): the tenant's name once it is read, never its id (issue 32).
  const tenant = useTenant(params.get('name') ? undefined : id);
  const name = params.get('name') || tenant.data?.name || '';
  const projects = useTenantProjects(id);
  return (
    <Card
      title={t('tenant.projectsTitle', { name })}
      data-testid="tenant-projects-page"
      extra={
        <Button
          icon={<ArrowLeftOutlined />}
          data-testid="tenant-projects-back"
          onClick={() => void navigate(PATHS.tenants)}
        >
          {t('tenant.back')}
        </Button>
      }
    >
      <TenantProjectList projects={projects.data} loading={projects.isPending} variant="cards" />
    </Card>
  );
}
