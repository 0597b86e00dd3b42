import { useQuery } from '@tanstack/react-query';
import { Card, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { ScrollTable } from '../../../components/ScrollTable';
import { request } from '../../../services/request';

interface DataStats {
  documents: number;
  bytes: number;
  collections: Array<{ collection: string; documents: number; bytes: number }>;
  /** Bytes of the project's files: media library and html package. */
  files?: { fileServer: number; html: number; truncated: boolean };
}

/** Bytes in the largest unit that keeps a number of at least 1 (B, KB, MB, GB, TB). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** The project's data: documents and stored size, in all and per collection (`project/{id}/data-stats`). */
export function ProjectData({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const { data } = useQuery({
    queryKey: ['project', projectId, 'data-stats'],
    queryFn: () => request<DataStats>(`rest/spm/project/${encodeURIComponent(projectId)}/data-stats`),
  });
  return (
    <Card title={t('project.data')} data-testid="project-data">
      <Descriptions size="small" column={{ xs: 1, md: 2 }}>
        <Descriptions.Item label={t('project.data.documents')}>
          <span data-testid="project-data-documents">{data ? data.documents.toLocaleString('en') : '-'}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('project.data.size')}>{data ? formatBytes(data.bytes) : '-'}</Descriptions.Item>
        <Descriptions.Item label={t('media.page.title')}>
          <span data-testid="project-data-files">
            {data?.files ? `${data.files.truncated ? '≥ ' : ''}${formatBytes(data.files.fileServer)}` : '-'}
          </span>
        </Descriptions.Item>
      </Descriptions>
      {data && data.collections.length > 0 ? (
        <ScrollTable
          size="small"
          rowKey="collection"
          pagination={false}
          dataSource={data.collections}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: t('project.data.collection'), dataIndex: 'collection' },
            {
              title: t('project.data.documents'),
              dataIndex: 'documents',
              align: 'right',
              render: (value: number) => value.toLocaleString('en'),
            },
            { title: t('project.data.size'), dataIndex: 'bytes', align: 'right', render: formatBytes },
          ]}
        />
      ) : null}
    </Card>
  );
}
