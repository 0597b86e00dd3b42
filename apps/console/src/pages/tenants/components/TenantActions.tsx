import type { TenantView } from '@gantry/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Popconfirm, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pathTo } from '../../../app/paths';
import { toast } from '../../../services/feedback';
import { deleteTenant, disableTenant, tenantKeys } from '../../../services/tenant';
import { testId } from '../../../utils/testId';

export interface TenantActionHandlers {
  onProjects: (tenant: TenantView) => void;
  onEnable: (tenant: TenantView) => void;
  onPassword: (tenant: TenantView) => void;
  /** After a delete: the list may have to step back a page. */
  onDeleted: () => void;
}

/** A row's actions: projects, detail, enable/disable, edit, delete, change password. */
export function TenantActions({ tenant, handlers }: { tenant: TenantView; handlers: TenantActionHandlers }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const id = tenant.id;

  const onDisable = async () => {
    try {
      await disableTenant(id);
      toast.success(t('tenant.disableSuccess'));
      await queryClient.invalidateQueries({ queryKey: tenantKeys.all });
    } catch {
      // reported by the request layer
    }
  };

  const onDelete = async () => {
    try {
      await deleteTenant(id);
      toast.success(t('tenant.deleteSuccess'));
      handlers.onDeleted();
      await queryClient.invalidateQueries({ queryKey: tenantKeys.all });
    } catch {
      // 409 tenantHasProjects: the request layer shows the server message (it names the count)
    }
  };

  // One line: the table is as wide as its content (scroll x max-content), so no action wraps.
  return (
    <Space size={0} style={{ whiteSpace: 'nowrap' }}>
      <Button
        type="link"
        size="small"
        data-testid={`tenant-projects-${id}`}
        onClick={() => handlers.onProjects(tenant)}
      >
        {t('tenant.projects')}
      </Button>
      <Button
        type="link"
        size="small"
        data-testid={`tenant-detail-${id}`}
        onClick={() => void navigate(pathTo('tenantDetail', { id }))}
      >
        {t('tenant.detail')}
      </Button>
      {tenant.status ? (
        <Popconfirm
          title={t('tenant.disableConfirm', { name: tenant.name })}
          onConfirm={onDisable}
          okButtonProps={testId('tenant-disable-confirm')}
        >
          <Button type="link" size="small" danger data-testid={`tenant-disable-${id}`}>
            {t('tenant.disable')}
          </Button>
        </Popconfirm>
      ) : (
        <Button type="link" size="small" data-testid={`tenant-enable-${id}`} onClick={() => handlers.onEnable(tenant)}>
          {t('tenant.enable')}
        </Button>
      )}
      <Button
        type="link"
        size="small"
        data-testid={`tenant-edit-${id}`}
        onClick={() => void navigate(pathTo('tenantEdit', { id }))}
      >
        {t('tenant.edit')}
      </Button>
      <Popconfirm
        title={t('tenant.deleteConfirm', { name: tenant.name })}
        onConfirm={onDelete}
        okButtonProps={testId('tenant-delete-confirm', { danger: true })}
      >
        <Button type="link" size="small" danger data-testid={`tenant-delete-${id}`}>
          {t('tenant.delete')}
        </Button>
      </Popconfirm>
      <Button
        type="link"
        size="small"
        data-testid={`tenant-password-${id}`}
        onClick={() => handlers.onPassword(tenant)}
      >
        {t('tenant.changePassword')}
      </Button>
    </Space>
  );
}
