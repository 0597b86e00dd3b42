import {
  CheckOutlined,
  CloseOutlined,
  DeleteOutlined,
  EditOutlined,
  EyeOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import {
  FIELD_REGISTRY,
  type Field,
  type FilterOperator,
  isComputed,
  isRecord,
  sha256Hex,
  type TableDefinition,
  type TableSetting,
} from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Descriptions,
  Drawer,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  type TableColumnsType,
  type TableProps,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnSettings, type KeyedColumn, useTableLayout } from '../../../../components/ColumnSettings';
import { ScrollTable } from '../../../../components/ScrollTable';
import { toast } from '../../../../services/feedback';
import { likeText } from '../../../../services/list';
import {
  batchUpdateRecords,
  createRecord,
  deleteRecord,
  listRecords,
  type TableDetail,
  type TableRecord,
  updateRecord,
} from '../../../../services/tables';
import { formatDateTime } from '../../../../utils/dateTime';
import { booleanOf, choiceOf, textsOf } from '../../../../utils/formValues';
import { testId } from '../../../../utils/testId';
import { dynamicText } from '../texts';
import { detailConfig } from '../viewConfig';
import { RecordForm } from './RecordForm';
import { ValueDisplay } from './ValueDisplay';
import { ROW_KEY, ValueEditor } from './ValueEditor';

/** One filter condition of the list: a field, one of its type's operators, a value. */
export interface Condition {
  op: FilterOperator;
  value: unknown;
}

export function filtersOf(field: Field): readonly FilterOperator[] {
  const type = FIELD_REGISTRY[field.type] as { filters: (options: unknown) => readonly FilterOperator[] };
  return type.filters(field.options);
}

/** The list query's filter from the conditions filled in (`like` matches the text literally). */
export function filterOf(conditions: Record<string, Condition>): Record<string, unknown> | undefined {
  const filter: Record<string, unknown> = {};
  for (const [name, { op, value }] of Object.entries(conditions)) {
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    const operand =
      op === 'like'
        ? likeText(String(value))
        : (op === 'in' || op === 'nin') && !Array.isArray(value)
          ? [value]
          : value;
    filter[name] = { [`$${op}`]: operand };
  }
  return Object.keys(filter).length ? filter : undefined;
}

/** The value input of a filter: the type's own for one value, the options (or free words) for several. */
function FilterValue({
  field,
  condition,
  choices,
  onChange,
}: {
  field: Field;
  condition: Condition;
  choices: string[] | undefined;
  onChange: (value: unknown) => void;
}) {
  const { t } = useTranslation();
  const many = condition.op === 'in' || condition.op === 'nin';
  const valueTestId = `filter-value-${field.name}`;
  const options =
    field.type === 'select' || field.type === 'multiSelect'
      ? field.options.options.map((option) => ({ value: option.value, label: option.label || option.value }))
      : choices?.map((choice) => ({ value: choice, label: choice }));
  if (options)
    return (
      <Select
        data-testid={valueTestId}
        allowClear
        style={{ minWidth: 160 }}
        mode={many ? 'multiple' : undefined}
        value={choiceOf(condition.value)}
        options={options}
        onChange={onChange}
      />
    );
  if (many)
    return (
      <Select
        data-testid={valueTestId}
        mode="tags"
        style={{ minWidth: 160 }}
        value={textsOf(condition.value)}
        onChange={onChange}
      />
    );
  if (field.type === 'boolean')
    return (
      <Select
        data-testid={valueTestId}
        allowClear
        style={{ width: 100 }}
        value={booleanOf(condition.value)}
        options={[
          { value: true, label: t('designer.rec.yes') },
          { value: false, label: t('designer.rec.no') },
        ]}
        onChange={onChange}
      />
    );
  if (
    field.type === 'number' ||
    field.type === 'rating' ||
    (field.type === 'formula' && field.options.result === 'number')
  )
    return (
      <InputNumber
        data-testid={valueTestId}
        value={typeof condition.value === 'number' ? condition.value : null}
        onChange={(value) => onChange(value ?? undefined)}
      />
    );
  if (field.type === 'date' || field.type === 'time')
    return (
      <div style={{ minWidth: 160 }}>
        <ValueEditor field={field} value={condition.value} onChange={onChange} testId={valueTestId} />
      </div>
    );
  return (
    <Input
      data-testid={valueTestId}
      style={{ width: 160 }}
      value={typeof condition.value === 'string' ? condition.value : ''}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/**
 * Where the signed-in user's list preferences of a table are kept (per table name, console.md §3):
 * the project and the table's name, or their digest when that would pass the 64 characters a key may have.
 */
export function recordsSettingKey(projectId: string, tableName: string): string {
  const key = `records:${projectId}:${tableName}`;
  return key.length <= 64 ? key : `records:${sha256Hex(key).slice(0, 56)}`;
}

/** A cell of a field editable in the list: its display, or its editor with save and cancel. */
function EditableCell({
  field,
  record,
  onSave,
}: {
  field: Field;
  record: TableRecord;
  onSave: (value: unknown) => Promise<void>;
}) {
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState<unknown>(record.data[field.name]);
  if (!editing)
    return (
      <Space size={4}>
        <ValueDisplay field={field} value={record.data[field.name]} />
        <Button
          type="text"
          size="small"
          icon={<EditOutlined />}
          data-testid={`cell-edit-${record.id}-${field.name}`}
          onClick={() => {
            setValue(record.data[field.name]);
            setEditing(true);
          }}
        />
      </Space>
    );
  return (
    <Space size={4}>
      <div style={{ minWidth: 120 }}>
        <ValueEditor field={field} value={value} onChange={setValue} testId={`cell-input-${record.id}-${field.name}`} />
      </div>
      <Button
        type="text"
        size="small"
        icon={<CheckOutlined />}
        data-testid={`cell-save-${record.id}-${field.name}`}
        onClick={async () => {
          await onSave(value);
          setEditing(false);
        }}
      />
      <Button type="text" size="small" icon={<CloseOutlined />} onClick={() => setEditing(false)} />
    </Space>
  );
}

/**
 * A published table's records (issue 16 §2): the list config's columns (width, fixed, sort), the
 * filter with the field types' operators (dedupe filter options: the values found), editable cells,
 * batch edit of the selected records, the record form and the record detail.
 */
export default function Records({ projectId, table }: { projectId: string; table: TableDetail }) {
  const { t } = useTranslation();
  const definition = table.published as TableDefinition;
  const fields = definition.fields;
  // The page size the pagination picked; until then, the user's stored one or the list config's.
  const [page, setPage] = useState<{ current: number; size?: number }>({ current: 1 });
  const [sort, setSort] = useState<Record<string, 1 | -1>>(
    definition.list.sortField ? { [definition.list.sortField]: definition.list.sortOrder } : { createTime: -1 },
  );
  const filterFields = fields.filter((field) => field.showInFilter && filtersOf(field).length > 0);
  const [conditions, setConditions] = useState<Record<string, Condition>>({});
  const [applied, setApplied] = useState<Record<string, unknown>>();
  const [selected, setSelected] = useState<string[]>([]);
  const [form, setForm] = useState<{ mode: 'create' | 'update'; record?: TableRecord }>();
  const [detail, setDetail] = useState<TableRecord>();
  const [batch, setBatch] = useState<{ field?: string; value?: unknown }>();

  const fieldColumns: KeyedColumn<TableRecord>[] = fields
    .filter((field) => field.showInList)
    .map((field) => ({
      title: field.title,
      key: field.name,
      width: field.width,
      fixed: field.fixed,
      sorter: field.sortable && field.type !== 'subTable',
      sortOrder: sort[field.name] === 1 ? ('ascend' as const) : sort[field.name] === -1 ? ('descend' as const) : null,
      render: (_: unknown, record: TableRecord): ReactNode =>
        field.editableInList && !isComputed(field) && field.type !== 'subTable' ? (
          <EditableCell
            key={record.updateTime}
            field={field}
            record={record}
            onSave={(value) => saveCell(record, field, value)}
          />
        ) : (
          <ValueDisplay field={field} value={record.data[field.name]} />
        ),
    }));
  const layout = useTableLayout(
    recordsSettingKey(projectId, table.name),
    fieldColumns,
    { pageSize: definition.list.pageSize, density: 'compact' },
    'records-columns',
  );
  const pageSize = page.size ?? layout.pageSize;
  const records = useQuery({
    queryKey: ['table-records', projectId, table.id, table.version, page.current, pageSize, sort, applied],
    enabled: layout.ready,
    queryFn: () =>
      listRecords(projectId, table.id, {
        skip: (page.current - 1) * pageSize,
        limit: pageSize,
        sort,
        ...(applied ? { filter: applied } : {}),
      }),
  });
  const dedupe = fields.filter((field) => field.showInFilter && field.dedupeFilterOptions);
  const choices = useQuery({
    queryKey: ['table-record-choices', projectId, table.id, table.version, dedupe.map((field) => field.name)],
    enabled: dedupe.length > 0,
    queryFn: async () => {
      const found = await listRecords(projectId, table.id, { project: dedupe.map((field) => field.name), limit: 1000 });
      const out: Record<string, string[]> = {};
      for (const field of dedupe) {
        const values = new Set<string>();
        for (const row of found.rows) {
          const value = row.data[field.name];
          if (typeof value === 'string' || typeof value === 'number') values.add(String(value));
        }
        out[field.name] = [...values].sort();
      }
      return out;
    },
  });
  const refresh = () => records.refetch();
  const saveCell = async (record: TableRecord, field: Field, value: unknown) => {
    await updateRecord(projectId, table.id, record.id, { [field.name]: value ?? null }).catch((error: Error) => {
      toast.error(error.message);
      throw error;
    });
    toast.success(t('tables.ui.saved'));
    await refresh();
  };

  const saveSettings = async (setting: TableSetting) => {
    await layout.settingsProps.onSave(setting);
    setPage({ current: 1 });
  };

  const columns: TableColumnsType<TableRecord> = [
    ...layout.columns,
    {
      title: t('designer.rec.actions'),
      key: 'actions',
      fixed: 'right' as const,
      width: 120,
      render: (_: unknown, record: TableRecord) => (
        <Space size={0}>
          <Button
            type="text"
            icon={<EyeOutlined />}
            aria-label={t('designer.rec.detail')}
            data-testid={`record-detail-${record.id}`}
            onClick={() => setDetail(record)}
          />
          <Button
            type="text"
            icon={<EditOutlined />}
            aria-label={t('designer.rec.edit')}
            data-testid={`record-edit-${record.id}`}
            onClick={() => setForm({ mode: 'update', record })}
          />
          <Popconfirm
            title={t('designer.rec.deleteConfirm')}
            okButtonProps={testId(`record-delete-confirm-${record.id}`)}
            onConfirm={async () => {
              await deleteRecord(projectId, table.id, record.id);
              toast.success(t('table.recordDeleted'));
              await refresh();
            }}
          >
            <Button
              type="text"
              danger
              icon={<DeleteOutlined />}
              aria-label={t('tables.ui.delete')}
              data-testid={`record-delete-${record.id}`}
            />
          </Popconfirm>
        </Space>
      ),
    },
  ];

  const onTableChange: TableProps<TableRecord>['onChange'] = (pagination, _filters, sorter) => {
    const one = Array.isArray(sorter) ? sorter[0] : sorter;
    const key = one?.columnKey ? String(one.columnKey) : undefined;
    setSort(key && one?.order ? { [key]: one.order === 'ascend' ? 1 : -1 } : { createTime: -1 });
    setPage({ current: pagination.current ?? 1, size: pagination.pageSize ?? pageSize });
  };

  const batchFields = fields.filter((field) => field.batchEdit && !isComputed(field));
  const batchField = fields.find((field) => field.name === batch?.field);
  const detailView = detailConfig(definition.detail);

  return (
    <div data-testid="records">
      {filterFields.length > 0 && (
        <Card size="small" style={{ marginBottom: 12 }} data-testid="record-filter">
          <Space wrap align="end">
            {filterFields.map((field) => {
              const operators = filtersOf(field);
              const condition = conditions[field.name] ?? { op: operators[0] ?? 'eq', value: undefined };
              return (
                <div
                  key={field.name}
                  style={{ display: 'flex', flexWrap: 'wrap', gap: 4, alignItems: 'center', maxWidth: '100%' }}
                >
                  <span data-testid={`filter-label-${field.name}`}>{field.title}</span>
                  <Space.Compact style={{ maxWidth: '100%' }}>
                    <Select
                      data-testid={`filter-op-${field.name}`}
                      style={{ width: 110 }}
                      value={condition.op}
                      options={operators.map((op) => ({ value: op, label: dynamicText(t, `designer.op.${op}`, op) }))}
                      onChange={(op) => setConditions({ ...conditions, [field.name]: { op, value: undefined } })}
                    />
                    <FilterValue
                      field={field}
                      condition={condition}
                      choices={choices.data?.[field.name]}
                      onChange={(value) => setConditions({ ...conditions, [field.name]: { ...condition, value } })}
                    />
                  </Space.Compact>
                </div>
              );
            })}
            <Button
              type="primary"
              data-testid="filter-apply"
              onClick={() => {
                setApplied(filterOf(conditions));
                setPage({ ...page, current: 1 });
              }}
            >
              {t('designer.rec.filter')}
            </Button>
            <Button
              data-testid="filter-reset"
              onClick={() => {
                setConditions({});
                setApplied(undefined);
              }}
            >
              {t('designer.rec.reset')}
            </Button>
          </Space>
        </Card>
      )}
      <Space wrap style={{ marginBottom: 12 }}>
        <ColumnSettings {...layout.settingsProps} onSave={saveSettings} />
        <Button
          type="primary"
          icon={<PlusOutlined />}
          data-testid="add-record"
          onClick={() => setForm({ mode: 'create' })}
        >
          {t('tables.ui.addRecord')}
        </Button>
        {batchFields.length > 0 && (
          <Button data-testid="batch-edit" disabled={selected.length === 0} onClick={() => setBatch({})}>
            {t('designer.rec.batchEdit')}
            {selected.length > 0 ? ` (${t('designer.rec.selected', { count: selected.length })})` : ''}
          </Button>
        )}
      </Space>
      <ScrollTable<TableRecord>
        rowKey="id"
        size={layout.size}
        data-testid="records-table"
        loading={records.isFetching || !layout.ready}
        columns={columns}
        dataSource={records.data?.rows ?? []}
        scroll={{ x: 'max-content' }}
        rowSelection={
          batchFields.length > 0
            ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }
            : undefined
        }
        pagination={{
          current: page.current,
          pageSize,
          total: records.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (count) => t('designer.rec.total', { count }),
        }}
        onChange={onTableChange}
      />
      <Modal
        open={form !== undefined}
        title={form?.mode === 'update' ? t('designer.rec.editRecord') : t('tables.ui.addRecord')}
        footer={null}
        destroyOnHidden
        width={Math.min(880, window.innerWidth - 16)}
        onCancel={() => setForm(undefined)}
      >
        {form && (
          <RecordForm
            key={form.record?.id ?? 'new'}
            definition={definition}
            mode={form.mode}
            projectId={projectId}
            initial={form.record?.data ?? {}}
            onCancel={() => setForm(undefined)}
            onSave={async (values) => {
              if (form.mode === 'update' && form.record)
                await updateRecord(projectId, table.id, form.record.id, values);
              else await createRecord(projectId, table.id, values);
              setForm(undefined);
              toast.success(t('tables.ui.saved'));
              await refresh();
            }}
          />
        )}
      </Modal>
      <Modal
        open={batch !== undefined}
        title={t('designer.rec.batchEdit')}
        okButtonProps={testId('batch-save', { disabled: !batchField })}
        destroyOnHidden
        onCancel={() => setBatch(undefined)}
        onOk={async () => {
          if (!batchField) return;
          const { updated } = await batchUpdateRecords(projectId, table.id, selected, {
            [batchField.name]: batch?.value ?? null,
          });
          toast.success(t('designer.rec.batchDone', { count: updated }));
          setBatch(undefined);
          setSelected([]);
          await refresh();
        }}
      >
        <Space orientation="vertical" style={{ width: '100%' }}>
          <span>{t('designer.rec.selected', { count: selected.length })}</span>
          <Select
            data-testid="batch-field"
            style={{ width: '100%' }}
            placeholder={t('designer.rec.batchField')}
            value={batch?.field}
            options={batchFields.map((field) => ({ value: field.name, label: field.title }))}
            onChange={(field) => setBatch({ field })}
          />
          {batchField && (
            <ValueEditor
              key={batchField.name}
              field={batchField}
              value={batch?.value}
              testId="batch-value"
              onChange={(value) => setBatch({ ...batch, value })}
            />
          )}
        </Space>
      </Modal>
      <Drawer
        open={detail !== undefined}
        title={t('designer.rec.detail')}
        size={Math.min(720, window.innerWidth)}
        onClose={() => setDetail(undefined)}
      >
        {detail && (
          <Descriptions
            bordered
            size="small"
            data-testid="record-detail"
            column={{ xs: 1, sm: Math.min(2, detailView.columns ?? 2), md: detailView.columns ?? 2 }}
            items={[
              ...fields
                .filter((field) => !(detailView.hidden ?? []).includes(field.name))
                .map((field) => ({
                  key: field.name,
                  label: field.title,
                  span: field.type === 'subTable' ? ('filled' as const) : undefined,
                  children:
                    field.type === 'subTable' ? (
                      <SubTableRows field={field} value={detail.data[field.name]} />
                    ) : (
                      <ValueDisplay field={field} value={detail.data[field.name]} />
                    ),
                })),
              { key: '_created', label: t('designer.rec.createTime'), children: formatDateTime(detail.createTime) },
              ...(detail.updateTime
                ? [
                    {
                      key: '_updated',
                      label: t('designer.rec.updateTime'),
                      children: formatDateTime(detail.updateTime),
                    },
                  ]
                : []),
            ]}
          />
        )}
      </Drawer>
      {!table.published && <Alert type="info" title={t('tables.ui.notPublished')} />}
    </div>
  );
}

/** A sub-table's rows in the record detail. */
function SubTableRows({ field, value }: { field: Extract<Field, { type: 'subTable' }>; value: unknown }) {
  const rows = Array.isArray(value) ? value.filter(isRecord) : [];
  return (
    <ScrollTable<Record<string, unknown>>
      size="small"
      pagination={false}
      rowKey={ROW_KEY}
      dataSource={rows.map((row, index) => ({ ...row, [ROW_KEY]: index }))}
      scroll={{ x: 'max-content' }}
      columns={field.options.fields.map((column) => ({
        title: column.title,
        key: column.name,
        render: (_: unknown, row: Record<string, unknown>) => <ValueDisplay field={column} value={row[column.name]} />,
      }))}
    />
  );
}
