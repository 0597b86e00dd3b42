import { AUDIT_EXPORT_MAX, type AuditExportFormat } from '@gantry/shared';
import { AutoComplete, Button, Card, Dropdown, Input, Select, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnSettings, useTableLayout } from '../../components/ColumnSettings';
import { ScrollTable } from '../../components/ScrollTable';
import { type AuditEntry, type AuditFilter, exportAudit, useAudit } from '../../services/audit';
import { reportError } from '../../services/request';
import { saveFile } from '../../utils/saveFile';
import { rowTestId } from '../../utils/testId';
import { auditColumns } from './auditColumns';
import { AUDIT_ACTIONS, AUDIT_OBJECT_TYPES, actionText, objectTypeText } from './labels';

const EMPTY: AuditFilter = { action: '', objectType: '', actor: '', target: '', from: '', to: '' };

/**
 * The picked days (YYYY-MM-DD, the browser's own date fields: no date-picker code on this page) as
 * the filter's times: from the first day's local start to the end of the last.
 */
function rangeOf(days: { from: string; to: string }): Pick<AuditFilter, 'from' | 'to'> {
  const start = days.from ? new Date(`${days.from}T00:00:00`) : null;
  const end = days.to ? new Date(`${days.to}T00:00:00`) : null;
  if (end) end.setDate(end.getDate() + 1);
  return { from: start ? start.toISOString() : '', to: end ? end.toISOString() : '' };
}

/**
 * /app/audit (administrator): the audit log, newest first, filtered by action, object type, actor,
 * target and time (in the list API), exported as CSV or JSON lines with the same filter.
 */
export default function AuditPage() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<AuditFilter>(EMPTY);
  const [filter, setFilter] = useState<AuditFilter>(EMPTY);
  const [page, setPage] = useState(1);
  const [days, setDays] = useState({ from: '', to: '' });
  const [exporting, setExporting] = useState(false);
  const columns = useMemo(() => auditColumns(t), [t]);
  const layout = useTableLayout('audit', columns, { pageSize: 20 }, 'audit-columns');
  const list = useAudit({ ...filter, page, pageSize: layout.pageSize }, layout.ready);

  const apply = (next: AuditFilter) => {
    setFilter(next);
    setPage(1);
  };

  const onExport = async (format: AuditExportFormat) => {
    setExporting(true);
    try {
      const { blob, name } = await exportAudit(filter, format);
      saveFile(blob, name ?? `audit.${format}`);
    } catch (error) {
      reportError(error);
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card
      title={t('audit.title')}
      extra={
        <Space>
          <Dropdown
            menu={{
              items: [
                { key: 'csv', label: t('audit.exportCsv') },
                { key: 'jsonl', label: t('audit.exportJsonl') },
              ],
              onClick: ({ key }) => void onExport(key === 'csv' ? 'csv' : 'jsonl'),
            }}
          >
            <Button
              data-testid="audit-export"
              loading={exporting}
              title={t('audit.exportLimit', { limit: AUDIT_EXPORT_MAX.toLocaleString() })}
            >
              {t('audit.export')}
            </Button>
          </Dropdown>
          <ColumnSettings {...layout.settingsProps} />
        </Space>
      }
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <AutoComplete
          data-testid="audit-filter-action"
          placeholder={t('audit.action')}
          aria-label={t('audit.action')}
          style={{ width: 200 }}
          allowClear
          value={draft.action}
          options={AUDIT_ACTIONS.map((value) => ({ value, label: actionText(value) }))}
          onChange={(value: string | undefined) => setDraft((d) => ({ ...d, action: value ?? '' }))}
        />
        <Select
          data-testid="audit-filter-object"
          placeholder={t('audit.objectType')}
          aria-label={t('audit.objectType')}
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
        <Input
          data-testid="audit-filter-target"
          placeholder={t('audit.target')}
          style={{ width: 180 }}
          allowClear
          value={draft.target}
          onChange={(e) => setDraft((d) => ({ ...d, target: e.target.value }))}
          onPressEnter={() => apply(draft)}
        />
        {(['from', 'to'] as const).map((end) => (
          <Input
            key={end}
            type="date"
            data-testid={`audit-filter-${end}`}
            aria-label={`${t('audit.timeRange')} (${end === 'from' ? '≥' : '≤'})`}
            style={{ width: 160 }}
            value={days[end]}
            onChange={(e) => {
              const next = { ...days, [end]: e.target.value };
              setDays(next);
              setDraft((d) => ({ ...d, ...rangeOf(next) }));
            }}
          />
        ))}
        <Button type="primary" data-testid="audit-search" onClick={() => apply(draft)}>
          {t('audit.search')}
        </Button>
        <Button
          data-testid="audit-reset"
          onClick={() => {
            setDraft(EMPTY);
            setDays({ from: '', to: '' });
            apply(EMPTY);
          }}
        >
          {t('audit.reset')}
        </Button>
      </Space>
      <ScrollTable<AuditEntry>
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
