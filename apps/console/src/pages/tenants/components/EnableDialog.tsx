import type { TenantView } from '@gantry/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Checkbox, Empty, Modal, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../services/feedback';
import { enableTenant, tenantKeys, useTenantProjects } from '../../../services/tenant';
import { testId } from '../../../utils/testId';
import { StatusTag } from './labels';

/**
 * Enabling a tenant (console.md §4): its projects listed, all preselected; the administrator picks
 * which to enable with it → `PATCH user/{id}/enable [ids]`.
 */
export function EnableDialog({ tenant, onClose }: { tenant: TenantView; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const projects = useTenantProjects(tenant.id);
  const all = (projects.data ?? []).map((p) => p.id);
  // null until the user changes the choice: every project is chosen
  const [chosen, setChosen] = useState<string[] | null>(null);
  const selected = chosen ?? all;
  const [saving, setSaving] = useState(false);

  const onOk = async () => {
    setSaving(true);
    try {
      await enableTenant(
        tenant.id,
        all.filter((id) => selected.includes(id)),
      );
      toast.success(t('tenant.enableSuccess', { name: tenant.name }));
      await queryClient.invalidateQueries({ queryKey: tenantKeys.all });
      onClose();
    } catch {
      // reported by the request layer
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t('tenant.enableTitle', { name: tenant.name })}
      onCancel={onClose}
      onOk={onOk}
      okText={t('tenant.enable')}
      cancelText={t('tenant.cancel')}
      confirmLoading={saving}
      okButtonProps={testId('tenant-enable-confirm', { disabled: projects.isPending })}
      cancelButtonProps={testId('tenant-enable-cancel')}
    >
      <div data-testid="tenant-enable-dialog">
        <Typography.Paragraph type="secondary">{t('tenant.enableHint')}</Typography.Paragraph>
        {projects.isPending ? (
          <Spin />
        ) : all.length === 0 ? (
          <Empty description={t('tenant.noProjects')} />
        ) : (
          <>
            <Checkbox
              data-testid="tenant-enable-all"
              checked={selected.length === all.length}
              indeterminate={selected.length > 0 && selected.length < all.length}
              onChange={(e) => setChosen(e.target.checked ? all : [])}
              style={{ marginBottom: 8 }}
            >
              {t('tenant.selectAll')}
            </Checkbox>
            {/* Each box is controlled here, not by Checkbox.Group: the group keeps its own list of
                registered boxes (filled by their effects), and a click it sees before that list is
                filled answers an empty choice. */}
            <Space orientation="vertical" style={{ width: '100%' }}>
              {(projects.data ?? []).map((p) => (
                <Checkbox
                  key={p.id}
                  checked={selected.includes(p.id)}
                  onChange={(e) =>
                    setChosen(all.filter((id) => (id === p.id ? e.target.checked : selected.includes(id))))
                  }
                  data-testid={`tenant-enable-project-${p.id}`}
                >
                  <Space>
                    {p.name}
                    <StatusTag status={p.status} />
                  </Space>
                </Checkbox>
              ))}
            </Space>
          </>
        )}
      </div>
    </Modal>
  );
}
