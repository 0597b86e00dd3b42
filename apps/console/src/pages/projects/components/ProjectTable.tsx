import { DownOutlined } from '@ant-design/icons';
import { PROJECT_LIST_PAGE, type ProjectView } from '@gantry/shared';
import { Button, Dropdown, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { openSite } from '../../../components/OpenSite';
import { formatDateTime } from '../../../utils/dateTime';
import { deviceStats } from '../projectNumbers';
import { withTestId } from '../testIds';
import { backupItems } from './backupItems';

export interface ProjectTableProps {
  projects: ProjectView[];
  total: number;
  page: number;
  loading: boolean;
  onPage: (page: number) => void;
  selected: ReadonlySet<string>;
  /** The selected keys (kept across pages) and the rows of them that are on this page. */
  onSelectRows: (ids: string[], rows: ProjectView[]) => void;
  onDetail: (project: ProjectView) => void;
  onLicence: (project: ProjectView) => void;
  onEdit: (project: ProjectView) => void;
  onDelete: (project: ProjectView) => void;
}

/** The list view (console.md §2, §3): the project columns, scroll x 3000, actions 280 wide. */
export function ProjectTable(props: ProjectTableProps) {
  const { t } = useTranslation();
  const { projects, total, page, loading, onPage, selected } = props;
  const row = (project: ProjectView) => `project-row-${project.id}`;

  const columns: ColumnsType<ProjectView> = [
    { title: t('project.name'), dataIndex: 'name', width: 220, fixed: 'left', ellipsis: true },
    { title: t('project.owner'), dataIndex: ['user', 'name'], width: 180, ellipsis: true },
    {
      title: t('project.status'),
      dataIndex: 'status',
      width: 100,
      render: (status: boolean) => (
        <Tag color={status ? 'green' : 'default'}>{t(status ? 'project.enabled' : 'project.disabled')}</Tag>
      ),
    },
    {
      title: t('project.createTime'),
      dataIndex: 'createTime',
      width: 200,
      render: (time: string) => formatDateTime(time),
    },
    { title: t('project.remarks'), dataIndex: 'remarks', width: 300, ellipsis: true },
    {
      title: t('project.bgColor'),
      dataIndex: 'bgColor',
      width: 140,
      render: (color: string | null) =>
        color ? (
          <Space size={6}>
            <span style={{ display: 'inline-block', width: 16, height: 16, borderRadius: 3, background: color }} />
            {color}
          </Space>
        ) : null,
    },
    { title: t('project.planId'), dataIndex: 'planId', width: 200, ellipsis: true },
    {
      title: t('project.deviceStats'),
      dataIndex: '_stats_',
      width: 160,
      render: (stats: ProjectView['_stats_'], project) => {
        const { total: count, online } = deviceStats(stats);
        return <span data-testid={`${row(project)}-devices`}>{`${count} / ${online}`}</span>;
      },
    },
    { title: t('project.port'), dataIndex: 'port', width: 120 },
    {
      title: t('project.actions'),
      key: 'actions',
      width: 280,
      fixed: 'right',
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
            <Button type="link" size="small" data-testid={`${id}-detail`} onClick={() => props.onDetail(project)}>
              {t('project.detail')}
            </Button>
            <Button type="link" size="small" data-testid={`${id}-licence`} onClick={() => props.onLicence(project)}>
              {t('project.licence')}
            </Button>
            <Dropdown trigger={['click']} menu={{ items: backupItems(t, id) }}>
              <Button type="link" size="small" data-testid={`${id}-more`}>
                {t('project.more')} <DownOutlined />
              </Button>
            </Dropdown>
            <Button type="link" size="small" data-testid={`${id}-edit`} onClick={() => props.onEdit(project)}>
              {t('project.edit')}
            </Button>
            <Button
              type="link"
              size="small"
              danger
              data-testid={`${id}-delete`}
              onClick={() => props.onDelete(project)}
            >
              {t('project.delete')}
            </Button>
          </Space>
        );
      },
    },
  ];

  return (
    <Table<ProjectView>
      data-testid="project-table"
      rowKey="id"
      columns={columns}
      dataSource={projects}
      loading={loading}
      scroll={{ x: 3000 }}
      onRow={(project) => withTestId<HTMLAttributes<HTMLElement>>(row(project))}
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
