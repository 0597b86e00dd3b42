import { AutoComplete, Button, Card, Input, Select, Space, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnSettings, useTableLayout } from '../../components/ColumnSettings';
import { type AuditEntry, type AuditFilter, useAudit } from '../../services/audit';
import { rowTestId } from '../../utils/testId';
import { auditColumns } from './auditColumns';
import { AUDIT_ACTIONS, AUDIT_OBJECT_TYPES, actionText, objectTypeText } from './labels';

const EMPTY: AuditFilter = { action: '', objectType: '', actor: '' };

/** /app/audit (administrator): the audit log, newest first, filtered by action, object type and actor. */
export default function AuditPage() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<AuditFilter>(EMPTY);
  const [filter, setFilter] = useState<AuditFilter>(EMPTY);
  const [page, setPage] = useState(1);
  const columns = useMemo(() => auditColumns(t), [t]);
  const layout = useTableLayout('audit', columns, { pageSize: 20 }, 'audit-columns');
  const list = useAudit({ ...filter, page, pageSize: layout.pageSize }, layout.ready);

  const apply = (next: AuditFilter) => {
    setFilter(next);
    setPage(1);
  };

  return (
    <Card title={t('audit.title')} extra={<ColumnSettings {...layout.settingsProps} />}>
      <Space wrap style={{ marginBottom: 16 }}>
        <AutoComplete
          data-testid="audit-filter-action"
          placeholder={t('audit.action')}
          style={{ width: 200 }}
          allowClear
          value={draft.action}
          options={AUDIT_ACTIONS.map((value) => ({ value, label: actionText(value) }))}
          onChange={(value: string | undefined) => setDraft((d) => ({ ...d, action: value ?? '' }))}
        />
        <Select
          data-testid="audit-filter-object"
          placeholder={t('audit.objectType')}
          style={{ width: 160 }}
          allowClear
          value={draft.objectType || undefined}
          options={AUDIT_OBJECT_TYPES.map((value) => ({ value, label: objectTypeText(value) }))}
          onChange={(value: string | undefined) => setDraft((d) => ({ ...d, objectType: value ?? '' }))}
        />
        <Input
          data-testid="audit-filter-actor"
          placeholder={t('audit.actor')}
          style={{ width: 180 }}
          allowClear
          value={draft.actor}
          onChange={(e) => setDraft((d) => ({ ...d, actor: e.target.value }))}
          onPressEnter={() => apply(draft)}
        />
        <Button type="primary" data-testid="audit-search" onClick={() => apply(draft)}>
          {t('audit.search')}
        </Button>
        <Button
          data-testid="audit-reset"
          onClick={() => {
            setDraft(EMPTY);
            apply(EMPTY);
          }}
        >
          {t('audit.reset')}
        </Button>
      </Space>
      <Table<AuditEntry>
        rowKey="id"
        data-testid="audit-table"
        size={layout.size}
        loading={list.isFetching || !layout.ready}
        dataSource={list.data?.rows ?? []}
        columns={layout.columns}
        scroll={{ x: 'max-content' }}
        onRow={(entry) => rowTestId(`audit-row-${entry.id}`)}
        expandable={{
          rowExpandable: (entry) => entry.detail !== null && Object.keys(entry.detail).length > 0,
          expandedRowRender: (entry) => (
            <pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{JSON.stringify(entry.detail, null, 2)}</pre>
          ),
        }}
        pagination={{
          current: page,
          pageSize: layout.pageSize,
          total: list.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPage,
        }}
      />
    </Card>
  );
}
