import { PlusOutlined } from '@ant-design/icons';
import type { TableSetting, TenantView } from '@gantry/shared';
import { Button, Card, Input, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PATHS } from '../../app/paths';
import { ColumnSettings, useTableLayout } from '../../components/ColumnSettings';
import { BlockedTooltip } from '../../components/LicenceStatus';
import { useLicenceBlock } from '../../components/LicenceStatus/useLicenceBlock';
import { ScrollTable } from '../../components/ScrollTable';
import { useIsMobile } from '../../layouts/useIsMobile';
import { useTenants } from '../../services/tenant';
import { rowTestId } from '../../utils/testId';
import { EnableDialog } from './components/EnableDialog';
import { tenantProjectsPath } from './components/labels';
import { PasswordDialog } from './components/PasswordDialog';
import { ProjectsModal } from './components/ProjectsModal';
import { type TenantActionHandlers, TenantActions } from './components/TenantActions';
import { tenantColumns } from './components/tenantColumns';

/** The name the tenant list's preferences are stored under (user record `tableSettings`). */
export const TENANT_TABLE = 'tenant';
export const TENANT_PAGE_SIZE = 10;

type Dialog = { kind: 'projects' | 'enable' | 'password'; tenant: TenantView };

/** /app/model/User/list: tenants, newest first, searchable by name, with their actions. */
export default function TenantsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const isMobile = useIsMobile();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const columns = useMemo(() => tenantColumns(t), [t]);
  const layout = useTableLayout(TENANT_TABLE, columns, { pageSize: TENANT_PAGE_SIZE });
  const list = useTenants({ name: search, page, pageSize: layout.pageSize }, layout.ready);
  const rows = list.data?.rows ?? [];
  // a tenant's grant is drawn from the platform licence: none (or one not valid now), no new tenant
  const addBlock = useLicenceBlock(true, 'licence.none');

  const handlers: TenantActionHandlers = {
    onProjects: (tenant) => {
      if (isMobile) void navigate(tenantProjectsPath(tenant.id, tenant.name));
      else setDialog({ kind: 'projects', tenant });
    },
    onEnable: (tenant) => setDialog({ kind: 'enable', tenant }),
    onPassword: (tenant) => setDialog({ kind: 'password', tenant }),
    onDeleted: () => {
      if (rows.length === 1 && page > 1) setPage(page - 1);
    },
  };

  const onSaveSettings = async (setting: TableSetting) => {
    await layout.settingsProps.onSave(setting);
    setPage(1);
  };

  const close = () => setDialog(null);
  return (
    <Card
      title={t('menu.tenants')}
      extra={
        <Space wrap>
          <Input.Search
            allowClear
            placeholder={t('tenant.search')}
            data-testid="tenant-search"
            onSearch={(value) => {
              setSearch(value);
              setPage(1);
            }}
            style={{ width: 220 }}
          />
          <ColumnSettings {...layout.settingsProps} onSave={onSaveSettings} />
          <BlockedTooltip reason={addBlock.reason}>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              data-testid="tenant-add"
              data-blocked={addBlock.reason ?? undefined}
              disabled={addBlock.pending || addBlock.reason !== null}
              onClick={() => void navigate(PATHS.tenantAdd)}
            >
              {t('tenant.add')}
            </Button>
          </BlockedTooltip>
        </Space>
      }
    >
      <ScrollTable<TenantView>
        rowKey="id"
        data-testid="tenant-table"
        size={layout.size}
        loading={list.isFetching || !layout.ready}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        onRow={(tenant) => rowTestId(`tenant-row-${tenant.id}`)}
        columns={[
          ...layout.columns,
          {
            key: 'actions',
            title: t('tenant.actions'),
            fixed: isMobile ? undefined : 'right',
            render: (_value, tenant) => <TenantActions tenant={tenant} handlers={handlers} />,
          },
        ]}
        pagination={{
          current: page,
          pageSize: layout.pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
        }}
      />
      {dialog?.kind === 'projects' ? <ProjectsModal tenant={dialog.tenant} onClose={close} /> : null}
      {dialog?.kind === 'enable' ? <EnableDialog tenant={dialog.tenant} onClose={close} /> : null}
      {dialog?.kind === 'password' ? <PasswordDialog tenant={dialog.tenant} onClose={close} /> : null}
    </Card>
  );
}
