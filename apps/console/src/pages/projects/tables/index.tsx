import {
  ArrowLeftOutlined,
  DeleteOutlined,
  EditOutlined,
  ExportOutlined,
  LinkOutlined,
  PlusOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import { tableName } from '@gantry/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Form, Input, Modal, Popconfirm, Row, Space, Spin, Tabs, Tag, Tooltip } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { pathTo } from '../../../app/paths';
import { toast } from '../../../services/feedback';
import { getProject } from '../../../services/project';
import {
  createTable,
  deleteTable,
  getTable,
  listTables,
  renameTable,
  type TableSummary,
} from '../../../services/tables';
import { testId } from '../../../utils/testId';
import { ProblemItem } from './ProblemItem';
import { dynamicText } from './texts';

// The designer and the records screen are chunks of their own, loaded when a table is opened.
const Designer = lazy(() => import('./designer/Designer'));
const Records = lazy(() => import('./records/Records'));
const TableInterface = lazy(() => import('./interface/TableInterface'));
// The table functions' dialogs too (the sync step's table is antd's Table), loaded when one opens.
const ShiftDialog = lazy(() => import('./ShiftDialog').then((module) => ({ default: module.ShiftDialog })));
const MappingCreateDialog = lazy(() =>
  import('./MappingDialogs').then((module) => ({ default: module.MappingCreateDialog })),
);
const SyncDialog = lazy(() => import('./MappingDialogs').then((module) => ({ default: module.SyncDialog })));

/** The name a table is created or renamed with: §5 "Table name cannot be empty" checked here first. */
function nameProblem(name: string): string | undefined {
  const parsed = tableName.safeParse(name);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

function TableRename({
  table,
  onClose,
  onSave,
}: {
  table: TableSummary | undefined;
  onClose: () => void;
  onSave: (change: { name: string; title?: string }) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(table?.name ?? '');
  const [title, setTitle] = useState(table?.title ?? '');
  const problem = nameProblem(name);
  return (
    <Modal
      open={table !== undefined}
      title={t('designer.rename')}
      okButtonProps={testId('table-rename-save', { disabled: problem !== undefined })}
      onCancel={onClose}
      onOk={() => onSave({ name: name.trim(), ...(title.trim() ? { title: title.trim() } : {}) })}
      destroyOnHidden
    >
      <Form layout="vertical" component="div">
        <ProblemItem label={t('tables.ui.name')} required problem={problem && dynamicText(t, problem)}>
          <Input data-testid="table-rename-name" value={name} onChange={(event) => setName(event.target.value)} />
        </ProblemItem>
        <Form.Item label={t('designer.tableTitle')}>
          <Input data-testid="table-rename-title" value={title} onChange={(event) => setTitle(event.target.value)} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * The table designer of a project (issue 16): its tables (create, rename, delete), the designer of
 * the one opened and the records of its published definition.
 */
export default function ProjectTablesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id: projectId = '' } = useParams();
  const client = useQueryClient();
  const project = useQuery({ queryKey: ['project', projectId], queryFn: () => getProject(projectId) });
  // The table opened and its tab are in the address: kept across a reload and the mobile layout's switch.
  const [search, setSearch] = useSearchParams();
  const selected = search.get('table') ?? undefined;
  const viewParam = search.get('view');
  const view = viewParam === 'records' || viewParam === 'api' ? viewParam : 'design';
  const setSelected = (id: string | undefined, tab: 'design' | 'records' | 'api' = 'design') =>
    setSearch(id ? { table: id, ...(tab !== 'design' ? { view: tab } : {}) } : {}, { replace: true });
  const [name, setName] = useState('');
  const [nameTouched, setNameTouched] = useState(false);
  const [renaming, setRenaming] = useState<TableSummary>();
  const [shifting, setShifting] = useState<TableSummary>();
  const [syncing, setSyncing] = useState<TableSummary>();
  const [mapping, setMapping] = useState(false);
  const tables = useQuery({ queryKey: ['tables', projectId], queryFn: () => listTables(projectId) });
  const table = useQuery({
    queryKey: ['tables', projectId, selected],
    queryFn: () => getTable(projectId, selected ?? ''),
    enabled: selected !== undefined,
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['tables', projectId] });
  const problem = nameTouched ? nameProblem(name) : undefined;
  const choices = (tables.data ?? []).map((item) => ({ id: item.id, name: item.title ?? item.name }));

  return (
    <Card
      title={
        <Space>
          <Button
            type="text"
            icon={<ArrowLeftOutlined />}
            onClick={() => navigate(pathTo('projectDetail', { id: projectId }))}
          />
          <span data-testid="tables-title">{`${t('tables.ui.title')} · ${project.data?.name ?? projectId}`}</span>
        </Space>
      }
    >
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={8} xl={6}>
          <Space.Compact style={{ width: '100%' }}>
            <Input
              data-testid="table-name"
              placeholder={t('tables.ui.name')}
              status={problem ? 'error' : undefined}
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                setNameTouched(true);
              }}
            />
            <Button
              type="primary"
              icon={<PlusOutlined />}
              data-testid="table-create"
              onClick={async () => {
                setNameTouched(true);
                if (nameProblem(name)) return;
                const created = await createTable(projectId, name.trim());
                setName('');
                setNameTouched(false);
                await refresh();
                setSelected(created.id);
              }}
            >
              {t('tables.ui.newTable')}
            </Button>
          </Space.Compact>
          <Button
            type="link"
            icon={<LinkOutlined />}
            data-testid="mapping-create"
            style={{ paddingInline: 0 }}
            onClick={() => setMapping(true)}
          >
            {t('designer.newMapping')}
          </Button>
          {problem && (
            <div className="ant-form-item-explain-error" data-testid="table-name-problem">
              {dynamicText(t, problem)}
            </div>
          )}
          <div style={{ border: '1px solid rgba(5,5,5,0.06)', borderRadius: 8, marginTop: 8 }} data-testid="table-list">
            {(tables.data ?? []).length === 0 && !tables.isLoading && <Empty description={t('tables.ui.empty')} />}
            {(tables.data ?? []).map((item) => (
              <div
                key={item.id}
                style={{
                  display: 'flex',
                  alignItems: 'center',
                  gap: 4,
                  padding: '4px 8px',
                  background: item.id === selected ? 'rgba(22,119,255,0.08)' : undefined,
                }}
              >
                <Button
                  type="text"
                  data-testid={`table-${item.name}`}
                  style={{ flex: 1, justifyContent: 'flex-start', minWidth: 0, overflow: 'hidden' }}
                  onClick={() => setSelected(item.id)}
                >
                  <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', minWidth: '2em' }}>
                    {item.title ?? item.name}
                  </span>
                  <Tag
                    color={item.state === 'published' ? 'green' : 'default'}
                    style={{ marginInlineEnd: 0, flexShrink: 0 }}
                  >
                    {item.state === 'published' ? t('tables.ui.published') : t('tables.ui.draft')}
                  </Tag>
                  {item.mapping && (
                    <Tag color="purple" style={{ marginInlineEnd: 0, flexShrink: 0 }}>
                      {t('designer.mapping')}
                    </Tag>
                  )}
                  {item.state === 'published' && item.unpublishedChanges && (
                    <Tooltip title={t('designer.unpublished')}>
                      <Tag color="orange" style={{ marginInlineEnd: 0 }}>
                        *
                      </Tag>
                    </Tooltip>
                  )}
                </Button>
                <Button
                  type="text"
                  size="small"
                  icon={<EditOutlined />}
                  aria-label={t('designer.rename')}
                  data-testid={`table-rename-${item.name}`}
                  onClick={() => setRenaming(item)}
                />
                {item.mapping && (
                  <Tooltip title={t('designer.sync')}>
                    <Button
                      type="text"
                      size="small"
                      icon={<SyncOutlined />}
                      aria-label={t('designer.sync')}
                      data-testid={`table-sync-${item.name}`}
                      onClick={() => setSyncing(item)}
                    />
                  </Tooltip>
                )}
                <Tooltip title={t('designer.shift')}>
                  <Button
                    type="text"
                    size="small"
                    icon={<ExportOutlined />}
                    aria-label={t('designer.shift')}
                    data-testid={`table-shift-${item.name}`}
                    onClick={() => setShifting(item)}
                  />
                </Tooltip>
                <Popconfirm
                  title={t('tables.ui.deleteConfirm')}
                  okButtonProps={testId(`table-delete-confirm-${item.name}`)}
                  onConfirm={async () => {
                    await deleteTable(projectId, item.id);
                    toast.success(t('table.deleted'));
                    if (selected === item.id) setSelected(undefined);
                    await refresh();
                  }}
                >
                  <Button
                    type="text"
                    danger
                    size="small"
                    icon={<DeleteOutlined />}
                    aria-label={t('tables.ui.delete')}
                    data-testid={`table-delete-${item.name}`}
                  />
                </Popconfirm>
              </div>
            ))}
          </div>
        </Col>
        <Col xs={24} lg={16} xl={18} style={{ minWidth: 0 }}>
          {table.data ? (
            <Suspense fallback={<Spin />}>
              <Tabs
                destroyOnHidden
                activeKey={table.data.published ? view : 'design'}
                onChange={(key) => setSelected(selected, key === 'records' || key === 'api' ? key : 'design')}
                items={[
                  {
                    key: 'design',
                    label: <span data-testid="tab-design">{t('tables.ui.design')}</span>,
                    children: (
                      <Designer
                        key={table.data.id}
                        projectId={projectId}
                        table={table.data}
                        tables={choices}
                        onChanged={() => void refresh()}
                      />
                    ),
                  },
                  {
                    key: 'records',
                    label: <span data-testid="tab-records">{t('tables.ui.records')}</span>,
                    disabled: table.data.published === null,
                    children: table.data.published ? (
                      <Records
                        key={`${table.data.id}-${table.data.version}`}
                        projectId={projectId}
                        table={table.data}
                      />
                    ) : null,
                  },
                  {
                    key: 'api',
                    label: <span data-testid="tab-api">{t('tableApi.tab')}</span>,
                    disabled: table.data.published === null,
                    children: table.data.published ? (
                      <TableInterface projectId={projectId} tableId={table.data.id} definition={table.data.published} />
                    ) : null,
                  },
                ]}
              />
            </Suspense>
          ) : (
            <Empty
              description={
                selected ? undefined : t((tables.data ?? []).length > 0 ? 'tables.ui.choose' : 'tables.ui.createFirst')
              }
            />
          )}
        </Col>
      </Row>
      <TableRename
        key={renaming?.id ?? 'none'}
        table={renaming}
        onClose={() => setRenaming(undefined)}
        onSave={async (change) => {
          if (!renaming) return;
          await renameTable(projectId, renaming.id, change);
          toast.success(t('designer.renamed'));
          setRenaming(undefined);
          await refresh();
        }}
      />
      <Suspense fallback={null}>
        {mapping && (
          <MappingCreateDialog
            projectId={projectId}
            open={mapping}
            tables={tables.data ?? []}
            onClose={() => setMapping(false)}
            onCreated={async (id) => {
              setMapping(false);
              await refresh();
              setSelected(id);
            }}
          />
        )}
        {syncing && (
          <SyncDialog
            projectId={projectId}
            table={syncing}
            onClose={() => setSyncing(undefined)}
            onSynced={async () => {
              setSyncing(undefined);
              await refresh();
            }}
          />
        )}
        {shifting && (
          <ShiftDialog
            projectId={projectId}
            table={shifting}
            onClose={() => setShifting(undefined)}
            onShifted={async (shifted) => {
              setShifting(undefined);
              if (shifted.mode === 'move' && selected === shifted.id) setSelected(undefined);
              await refresh();
            }}
          />
        )}
      </Suspense>
    </Card>
  );
}
