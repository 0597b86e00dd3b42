import type { ProjectView } from '@gantry/shared';
import { Card, Col, Empty, Row, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../utils/dateTime';
import { rowTestId } from '../../../utils/testId';
import { StatusTag } from './labels';

interface TenantProjectListProps {
  projects: ProjectView[] | undefined;
  loading: boolean;
  /** A compact table (modal, detail page) or cards (small screens). */
  variant: 'table' | 'cards';
}

/** A tenant's projects: name, status and creation time. */
export function TenantProjectList({ projects, loading, variant }: TenantProjectListProps) {
  const { t } = useTranslation();
  const empty = <Empty description={t('tenant.noProjects')} />;
  if (variant === 'table') {
    return (
      <Table<ProjectView>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={projects ?? []}
        pagination={false}
        locale={{ emptyText: empty }}
        onRow={(p) => rowTestId(`tenant-project-${p.id}`)}
        columns={[
          { key: 'name', title: t('tenant.name'), dataIndex: 'name' },
          {
            key: 'status',
            title: t('tenant.status'),
            dataIndex: 'status',
            render: (status: boolean) => <StatusTag status={status} />,
          },
          {
            key: 'createTime',
            title: t('tenant.createTime'),
            dataIndex: 'createTime',
            render: (value: string) => formatDateTime(value),
          },
        ]}
      />
    );
  }
  if (loading) return <Card loading />;
  if (!projects || projects.length === 0) return empty;
  return (
    <Row gutter={[12, 12]}>
      {projects.map((p) => (
        <Col key={p.id} xs={24} sm={12}>
          <Card
            size="small"
            data-testid={`tenant-project-${p.id}`}
            style={{ borderLeft: `4px solid ${p.bgColor ?? '#1677ff'}` }}
          >
            <Typography.Text strong ellipsis style={{ display: 'block' }}>
              {p.name}
            </Typography.Text>
            <div style={{ marginTop: 8, display: 'flex', justifyContent: 'space-between' }}>
              <StatusTag status={p.status} />
              <Typography.Text type="secondary">{formatDateTime(p.createTime)}</Typography.Text>
            </div>
          </Card>
        </Col>
      ))}
    </Row>
  );
}
