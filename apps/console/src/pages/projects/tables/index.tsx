import { ArrowLeftOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { FIELD_TYPES, type FieldType } from '@gantry/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  type ButtonProps,
  Card,
  Empty,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  type TableColumnsType,
  Tabs,
  Tag,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { toast } from '../../../services/feedback';
import { RequestError } from '../../../services/request';
import {
  createRecord,
  createTable,
  deleteRecord,
  deleteTable,
  type FieldChange,
  getTable,
  listRecords,
  listTables,
  type PublishPreview,
  publishPreview,
  publishTable,
  saveDraft,
  type TableDetail,
  type TableRecord,
} from '../../../services/tables';
import { projectPath } from '../paths';
import './texts';

const testId = (id: string) => ({ 'data-testid': id }) as ButtonProps;

/** A field row as the designer edits it: the common properties shown, the options as JSON text. */
interface FieldRow {
  /** The row's key in the editor (not saved). */
  key: string;
  name: string;
  title: string;
  type: FieldType;
  required: boolean;
  options: string;
  /** Properties the page does not edit, kept as they were. */
  rest: Record<string, unknown>;
}

let nextKey = 0;
const newKey = () => String(++nextKey);

function rowsOf(table: TableDetail): FieldRow[] {
  return table.draft.fields.map((field) => {
    const { name, title, type, required, options, ...rest } = field;
    return { key: newKey(), name, title, type, required, options: JSON.stringify(options), rest };
  });
}

/** The draft to save from the rows; undefined (and a message) when a row's options are not JSON. */
export function draftOf(table: TableDetail, rows: FieldRow[]): Record<string, unknown> | undefined {
  const fields: Array<Record<string, unknown>> = [];
  for (const row of rows) {
    let options: unknown;
    try {
      options = row.options.trim() === '' ? {} : JSON.parse(row.options);
    } catch {
      return undefined;
    }
    fields.push({ ...row.rest, name: row.name, title: row.title, type: row.type, required: row.required, options });
  }
  return { ...table.draft, fields };
}

/** A value typed in the add-record form, as the field's type stores it. */
export function typedValue(type: FieldType, text: string): unknown {
  if (text === '') return undefined;
  if (type === 'number' || type === 'rating') return Number(text);
  if (type === 'boolean') return text === 'true';
  if (['text', 'select', 'link', 'time', 'date', 'relation', 'byteArray'].includes(type)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function Designer({ projectId, table, onChanged }: { projectId: string; table: TableDetail; onChanged: () => void }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<FieldRow[]>(() => rowsOf(table));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [preview, setPreview] = useState<PublishPreview>();
  useEffect(() => setRows(rowsOf(table)), [table]);
  const update = (index: number, change: Partial<FieldRow>) =>
    setRows((current) => current.map((row, i) => (i === index ? { ...row, ...change } : row)));

  const save = async (): Promise<boolean> => {
    const draft = draftOf(table, rows);
    if (!draft) {
      setProblems({ _: t('tables.ui.badJson') });
      return false;
    }
    try {
      await saveDraft(projectId, table.id, draft as never);
      setProblems({});
      toast.success(t('tables.ui.saved'));
      onChanged();
      return true;
    } catch (error) {
      if (error instanceof RequestError) setProblems(error.fields ?? { _: error.message });
      return false;
    }
  };

  const columns: TableColumnsType<FieldRow> = [
    {
      title: t('tables.ui.identifier'),
      key: 'name',
      render: (_: unknown, row: FieldRow, index: number) => (
        <Input
          data-testid={`field-name-${index}`}
          value={row.name}
          status={problems[`fields.${index}.name`] ? 'error' : undefined}
          onChange={(event) => update(index, { name: event.target.value })}
        />
      ),
    },
    {
      title: t('tables.ui.fieldTitle'),
      key: 'title',
      render: (_: unknown, row: FieldRow, index: number) => (
        <Input value={row.title} onChange={(event) => update(index, { title: event.target.value })} />
      ),
    },
    {
      title: t('tables.ui.type'),
      key: 'type',
      render: (_: unknown, row: FieldRow, index: number) => (
        <Select
          style={{ minWidth: 130 }}
          value={row.type}
          options={FIELD_TYPES.map((type) => ({ value: type, label: type }))}
          onChange={(type) => update(index, { type, options: '{}' })}
        />
      ),
    },
    {
      title: t('tables.ui.required'),
      key: 'required',
      render: (_: unknown, row: FieldRow, index: number) => (
        <Switch checked={row.required} onChange={(required) => update(index, { required })} />
      ),
    },
    {
      title: t('tables.ui.options'),
      key: 'options',
      render: (_: unknown, row: FieldRow, index: number) => (
        <Input value={row.options} onChange={(event) => update(index, { options: event.target.value })} />
      ),
    },
    {
      key: 'remove',
      render: (_: unknown, _row: FieldRow, index: number) => (
        <Button type="link" danger onClick={() => setRows((current) => current.filter((_item, i) => i !== index))}>
          {t('tables.ui.removeField')}
        </Button>
      ),
    },
  ];

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {Object.keys(problems).length > 0 && (
        <Alert
          type="error"
          data-testid="draft-problems"
          title={
            <ul style={{ margin: 0 }}>
              {Object.entries(problems).map(([path, text]) => (
                <li key={path}>{path === '_' ? text : `${path}: ${text}`}</li>
              ))}
            </ul>
          }
        />
      )}
      <Table rowKey="key" size="small" pagination={false} columns={columns} dataSource={rows} />
      <Space>
        <Button
          icon={<PlusOutlined />}
          {...testId('add-field')}
          onClick={() =>
            setRows((current) => [
              ...current,
              { key: newKey(), name: '', title: '', type: 'text', required: false, options: '{}', rest: {} },
            ])
          }
        >
          {t('tables.ui.addField')}
        </Button>
        <Button {...testId('save-draft')} onClick={() => void save()}>
          {t('tables.ui.saveDraft')}
        </Button>
        <Button
          type="primary"
          {...testId('publish')}
          onClick={async () => {
            if (await save()) setPreview(await publishPreview(projectId, table.id));
          }}
        >
          {table.state === 'published' ? t('tables.ui.updatePublish') : t('tables.ui.publish')}
        </Button>
      </Space>
      <Modal
        open={preview !== undefined}
        title={table.state === 'published' ? t('tables.ui.updatePublish') : t('tables.ui.publish')}
        okButtonProps={testId('publish-confirm')}
        onCancel={() => setPreview(undefined)}
        onOk={async () => {
          if (!preview) return;
          await publishTable(projectId, table.id, preview.draftVersion);
          setPreview(undefined);
          toast.success(t('tables.ui.saved'));
          onChanged();
        }}
      >
        {preview && preview.changes.length === 0 ? (
          <p>{t('tables.ui.noChanges')}</p>
        ) : (
          <Table<FieldChange>
            data-testid="publish-changes"
            rowKey="field"
            size="small"
            pagination={false}
            dataSource={preview?.changes ?? []}
            columns={[
              { title: t('tables.ui.identifier'), dataIndex: 'field' },
              {
                title: t('tables.ui.change'),
                dataIndex: 'change',
                render: (change: FieldChange['change']) => t(`tables.ui.change.${change}`),
              },
              { title: t('tables.ui.values'), dataIndex: 'values' },
              { title: t('tables.ui.converted'), dataIndex: 'converted' },
              { title: t('tables.ui.dropped'), dataIndex: 'dropped' },
            ]}
          />
        )}
      </Modal>
    </Space>
  );
}

function Records({ projectId, table }: { projectId: string; table: TableDetail }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const fields = (table.published?.fields ?? []).filter((field) => field.showInList);
  const records = useQuery({
    queryKey: ['tables', projectId, table.id, 'records', table.version],
    queryFn: () => listRecords(projectId, table.id),
    enabled: table.published !== null,
  });
  const [adding, setAdding] = useState(false);
  const [values, setValues] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  if (!table.published) return <Empty description={t('tables.ui.notPublished')} />;
  const refresh = () => client.invalidateQueries({ queryKey: ['tables', projectId, table.id, 'records'] });
  const inputs = (table.published.fields ?? []).filter((field) => field.showOnCreate);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Button icon={<PlusOutlined />} {...testId('add-record')} onClick={() => setAdding(true)}>
        {t('tables.ui.addRecord')}
      </Button>
      <Table<TableRecord>
        data-testid="records"
        rowKey="id"
        size="small"
        loading={records.isLoading}
        dataSource={records.data ?? []}
        columns={[
          ...fields.map((field) => ({
            title: field.title,
            key: field.name,
            width: field.width,
            fixed: field.fixed,
            render: (_: unknown, record: TableRecord) => {
              const value = record.data[field.name];
              return value === undefined || value === null
                ? ''
                : typeof value === 'object'
                  ? JSON.stringify(value)
                  : String(value);
            },
          })),
          {
            key: 'actions',
            render: (_: unknown, record: TableRecord) => (
              <Popconfirm
                title={t('tables.ui.delete')}
                okButtonProps={testId(`record-delete-confirm-${record.id}`)}
                onConfirm={async () => {
                  await deleteRecord(projectId, table.id, record.id);
                  await refresh();
                }}
              >
                <Button type="link" danger icon={<DeleteOutlined />} {...testId(`record-delete-${record.id}`)} />
              </Popconfirm>
            ),
          },
        ]}
      />
      <Modal
        open={adding}
        title={t('tables.ui.addRecord')}
        okButtonProps={testId('record-save')}
        onCancel={() => setAdding(false)}
        onOk={async () => {
          const body = Object.fromEntries(
            inputs
              .map((field) => [field.name, typedValue(field.type, values[field.name] ?? '')] as const)
              .filter(([, value]) => value !== undefined),
          );
          try {
            await createRecord(projectId, table.id, body);
            setAdding(false);
            setValues({});
            setProblems({});
            toast.success(t('tables.ui.saved'));
            await refresh();
          } catch (error) {
            if (error instanceof RequestError) setProblems(error.fields ?? { _: error.message });
          }
        }}
      >
        <Space orientation="vertical" style={{ width: '100%' }}>
          {problems._ && <Alert type="error" title={problems._} />}
          {inputs.map((field) => (
            <div key={field.name}>
              <div>
                {field.title}
                {field.required ? ' *' : ''}
              </div>
              {field.type === 'number' || field.type === 'rating' ? (
                <InputNumber
                  data-testid={`record-input-${field.name}`}
                  style={{ width: '100%' }}
                  value={values[field.name] === undefined ? null : Number(values[field.name])}
                  onChange={(value) => setValues({ ...values, [field.name]: value === null ? '' : String(value) })}
                />
              ) : (
                <Input
                  data-testid={`record-input-${field.name}`}
                  value={values[field.name] ?? ''}
                  status={problems[field.name] ? 'error' : undefined}
                  onChange={(event) => setValues({ ...values, [field.name]: event.target.value })}
                />
              )}
              {problems[field.name] && (
                <div style={{ color: '#ff4d4f' }} data-testid={`record-problem-${field.name}`}>
                  {problems[field.name]}
                </div>
              )}
            </div>
          ))}
        </Space>
      </Modal>
    </Space>
  );
}

/**
 * The table designer of a project (issue 16): its tables, the designer (fields, save draft, publish
 * with the difference shown first) and the records of the published definition.
 */
export default function ProjectTablesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id: projectId = '' } = useParams();
  const client = useQueryClient();
  const [selected, setSelected] = useState<string>();
  const [name, setName] = useState('');
  const tables = useQuery({ queryKey: ['tables', projectId], queryFn: () => listTables(projectId) });
  const table = useQuery({
    queryKey: ['tables', projectId, selected],
    queryFn: () => getTable(projectId, selected ?? ''),
    enabled: selected !== undefined,
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['tables', projectId] });

  return (
    <Card
      title={
        <Space>
          <Button type="text" icon={<ArrowLeftOutlined />} onClick={() => navigate(projectPath(projectId, 'detail'))} />
          {t('tables.ui.title')}
        </Space>
      }
    >
      <div style={{ display: 'flex', gap: 16, alignItems: 'flex-start' }}>
        <div style={{ width: 260, flex: 'none' }}>
          <Space.Compact style={{ width: '100%', marginBottom: 8 }}>
            <Input
              data-testid="table-name"
              placeholder={t('tables.ui.name')}
              value={name}
              onChange={(event) => setName(event.target.value)}
            />
            <Button
              type="primary"
              {...testId('table-create')}
              onClick={async () => {
                const created = await createTable(projectId, name);
                setName('');
                await refresh();
                setSelected(created.id);
              }}
            >
              {t('tables.ui.newTable')}
            </Button>
          </Space.Compact>
          <div style={{ border: '1px solid #f0f0f0', borderRadius: 8 }}>
            {(tables.data ?? []).length === 0 && !tables.isLoading && <Empty description={t('tables.ui.empty')} />}
            {(tables.data ?? []).map((item) => (
              <div
                key={item.id}
                style={{
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'space-between',
                  padding: '4px 8px',
                  background: item.id === selected ? '#e6f4ff' : undefined,
                }}
              >
                <Button type="text" {...testId(`table-${item.name}`)} onClick={() => setSelected(item.id)}>
                  <Space>
                    {item.title ?? item.name}
                    <Tag color={item.state === 'published' ? 'green' : 'default'}>
                      {item.state === 'published' ? t('tables.ui.published') : t('tables.ui.draft')}
                    </Tag>
                  </Space>
                </Button>
                <Popconfirm
                  title={t('tables.ui.deleteConfirm')}
                  okButtonProps={testId(`table-delete-confirm-${item.name}`)}
                  onConfirm={async () => {
                    await deleteTable(projectId, item.id);
                    if (selected === item.id) setSelected(undefined);
                    await refresh();
                  }}
                >
                  <Button
                    type="link"
                    danger
                    size="small"
                    icon={<DeleteOutlined />}
                    {...testId(`table-delete-${item.name}`)}
                  />
                </Popconfirm>
              </div>
            ))}
          </div>
        </div>
        <div style={{ flex: 1, minWidth: 0 }}>
          {table.data ? (
            <Tabs
              items={[
                {
                  key: 'design',
                  label: t('tables.ui.design'),
                  children: <Designer projectId={projectId} table={table.data} onChanged={() => void refresh()} />,
                },
                {
                  key: 'records',
                  label: t('tables.ui.records'),
                  children: <Records projectId={projectId} table={table.data} />,
                },
              ]}
            />
          ) : (
            <Empty />
          )}
        </div>
      </div>
    </Card>
  );
}
