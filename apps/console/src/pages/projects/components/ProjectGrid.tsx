import type { ProjectView } from '@gantry/shared';
import { Button, Col, Empty, Row, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { ProjectCard } from './ProjectCard';

export interface ProjectGridProps {
  projects: ProjectView[];
  loading: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  selected: ReadonlySet<string>;
  onSelect: (id: string, selected: boolean) => void;
  onLicence: (project: ProjectView) => void;
  onEdit: (project: ProjectView) => void;
  onToggleStatus: (project: ProjectView) => void;
  onDelete: (project: ProjectView) => void;
}

/** Columns from the smallest screens up: 1, 2, 3, 4, 6 (24-column grid spans). */
const SPANS = { xs: 24, sm: 12, md: 8, lg: 6, xl: 4 };

/** The card grid with its empty state, loading indicator and "load more" below. */
export function ProjectGrid(props: ProjectGridProps) {
  const { t } = useTranslation();
  const { projects, loading, hasMore, loadingMore, onLoadMore, selected } = props;
  if (!loading && projects.length === 0) {
    return <Empty data-testid="project-empty" description={t('project.empty')} style={{ padding: '48px 0' }} />;
  }
  return (
    <Spin spinning={loading} data-testid="project-grid-loading">
      <Row gutter={[16, 16]} data-testid="project-grid" style={{ minHeight: loading ? 160 : undefined }}>
        {projects.map((project) => (
          <Col key={project.id} {...SPANS}>
            <ProjectCard
              project={project}
              selected={selected.has(project.id)}
              onSelect={(value) => props.onSelect(project.id, value)}
              onLicence={() => props.onLicence(project)}
              onEdit={() => props.onEdit(project)}
              onToggleStatus={() => props.onToggleStatus(project)}
              onDelete={() => props.onDelete(project)}
            />
          </Col>
        ))}
      </Row>
      {hasMore ? (
        <div style={{ textAlign: 'center', margin: '16px 0' }}>
          <Button data-testid="project-load-more" loading={loadingMore} onClick={onLoadMore}>
            {t('project.loadMore')}
          </Button>
        </div>
      ) : null}
    </Spin>
  );
}
