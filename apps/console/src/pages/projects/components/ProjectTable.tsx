import { DownOutlined } from '@ant-design/icons';
import { PROJECT_LIST_PAGE, type ProjectView } from '@gantry/shared';
import { Button, Dropdown, Grid, Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { openSite } from '../../../components/OpenSite';
import { ScrollTable } from '../../../components/ScrollTable';
import { formatDateTime } from '../../../utils/dateTime';
import { rowTestId, withTestId } from '../../../utils/testId';
import { useProjectExpand } from '../../project-expand/api';
import { extensionText } from '../../project-expand/extensionValue';
import { type ProjectMenuHandlers, projectMenu, runProjectAction } from '../projectMenu';
import { deviceStats } from '../projectNumbers';

export interface ProjectTableProps extends ProjectMenuHandlers {
  projects: ProjectView[];
  isAdmin: boolean;
  total: number;
  page: number;
  loading: boolean;
  onPage: (page: number) => void;
  selected: ReadonlySet<string>;
  /** The selected keys (kept across pages) and the rows of them that are on this page. */
  onSelectRows: (ids: string[], rows: ProjectView[]) => void;
}

/** Width of the selection column antd adds. */
const SELECTION_WIDTH = 48;

/**
 * The list view with the spec's columns (console.md "Project": name, user, status, createTime,
 * remarks, bgColor, planId, _stats_, port; remarks, bgColor, planId, port and the extension fields from
 * 1,600 px, where they fit). Where the columns are wider than the page the table
 * scrolls with a scrollbar held at the bottom of the window (sticky), the name fixed on the left and,
 * from 1,200 px, the actions on the right. Front site, back office and detail are buttons; the "more"
 * menu holds every action, as the card's does (projectMenu.tsx).
 */
export function ProjectTable(props: ProjectTableProps) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const { projects, total, page, loading, onPage, selected } = props;
  const row = (project: ProjectView) => `project-row-${project.id}`;
  const wide = screens.xl === true;
  // The columns beyond the essentials from 1,600 px: below, the table fits the page (the detail has them all).
  const roomy = screens.xxl === true;

  const expand = useProjectExpand().data;
  const yesNo = (value: boolean) => t(value ? 'common.yes' : 'common.no');
  const extensionColumns: ColumnsType<ProjectView> = (expand?.schema.fields ?? []).map((field) => ({
    title: field.title,
    key: `extra.${field.name}`,
    width: 160,
    ellipsis: { showTitle: true },
    render: (_: unknown, project: ProjectView) => (
      <span data-testid={`${row(project)}-extra-${field.name}`}>
        {extensionText(field, project.extra?.[field.name], yesNo)}
      </span>
    ),
  }));
  const wideColumns: ColumnsType<ProjectView> = [
    {
      title: t('project.remarks'),
      dataIndex: 'remarks',
      width: 220,
      ellipsis: { showTitle: true },
    },
    {
      title: t('project.bgColor'),
      dataIndex: 'bgColor',
      width: 130,
      render: (color: string | null) =>
        color ? (
          <Space size={6}>
            <span style={{ display: 'inline-block', width: 16, height: 16, borderRadius: 3, background: color }} />
            {color}
          </Space>
        ) : null,
    },
    { title: t('project.planId'), dataIndex: 'planId', width: 160, ellipsis: true },
    { title: t('project.port'), dataIndex: 'port', width: 90 },
    ...extensionColumns,
  ];
  const columns: ColumnsType<ProjectView> = [
    {
      title: t('project.name'),
      dataIndex: 'name',
      width: 240,
      fixed: screens.md ? 'left' : undefined,
      ellipsis: { showTitle: true },
      onCell: (project) => rowTestId(`${row(project)}-name`),
    },
    { title: t('project.owner'), dataIndex: ['user', 'name'], width: 180, ellipsis: { showTitle: true } },
    {
      title: t('project.status'),
      dataIndex: 'status',
      width: 90,
      render: (status: boolean) => (
        <Tag color={status ? 'green' : 'default'}>{t(status ? 'project.enabled' : 'project.disabled')}</Tag>
      ),
    },
    {
      title: t('project.createTime'),
      dataIndex: 'createTime',
      width: 170,
      render: (time: string) => formatDateTime(time),
    },
    {
      title: t('project.deviceStats'),
      dataIndex: '_stats_',
      width: 120,
      render: (stats: ProjectView['_stats_'], project) => {
        const { total: count, online } = deviceStats(stats);
        return <span data-testid={`${row(project)}-devices`}>{`${count} / ${online}`}</span>;
      },
    },
    ...(roomy ? wideColumns : []),
    {
      title: t('project.actions'),
      key: 'actions',
      width: 250,
      fixed: wide ? 'right' : undefined,
      render: (_: unknown, project) => {
        const id = row(project);
        return (
          <Space size={0} wrap>
            <Button type="link" size="small" data-testid={`${id}-front`} onClick={() => openSite(project, 'front')}>
              {t('project.front')}
            </Button>
            <Button type="link" size="small" data-testid={`${id}-admin`} onClick={() => openSite(project, 'admin')}>
              {t('project.admin')}
            </Button>
            <Button
              type="link"
              size="small"
              data-testid={`${id}-detail`}
              onClick={() => runProjectAction(project, 'detail', props)}
            >
              {t('project.detail')}
            </Button>
            <Dropdown trigger={['click']} menu={{ items: projectMenu(project, props, t, id, props) }}>
              <Button type="link" size="small" data-testid={`${id}-more`}>
                {t('project.more')} <DownOutlined />
              </Button>
            </Dropdown>
          </Space>
        );
      },
    },
  ];
  const scrollX = columns.reduce((sum, column) => sum + Number(column.width ?? 0), SELECTION_WIDTH);

  return (
    <ScrollTable<ProjectView>
      data-testid="project-table"
      rowKey="id"
      columns={columns}
      dataSource={projects}
      loading={loading}
      scroll={{ x: scrollX }}
      sticky={{ offsetHeader: 0 }}
      tableLayout="fixed"
      onRow={(project) => rowTestId(row(project))}
      rowSelection={{
        selectedRowKeys: [...selected],
        preserveSelectedRowKeys: true,
        onChange: (keys, rows) => props.onSelectRows(keys.map(String), rows.filter(Boolean)),
        getCheckboxProps: (project) => withTestId(`${row(project)}-select`),
      }}
      pagination={{
        current: page,
        pageSize: PROJECT_LIST_PAGE,
        total,
        showSizeChanger: false,
        onChange: onPage,
        showTotal: (count) => t('project.total', { n: count }),
      }}
    />
  );
}
