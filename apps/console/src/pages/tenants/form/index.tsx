import { Card, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useTenant } from '../../../services/tenant';
import { TenantForm } from './TenantForm';

/** /app/model/User/add and /app/model/User/{id}/edit. */
export default function TenantFormPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const tenant = useTenant(id);
  if (!id) return <TenantForm tenant={undefined} />;
  if (tenant.isPending) return <Card loading data-testid="tenant-form-loading" />;
  if (!tenant.data) return <Empty description={t('exception.notFound')} />;
  // keyed: another tenant's edit page starts from that tenant's values
  return <TenantForm key={tenant.data.id} tenant={tenant.data} />;
}
