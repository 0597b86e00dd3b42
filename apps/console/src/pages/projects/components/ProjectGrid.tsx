import type { ProjectView } from '@gantry/shared';
import { Button, Empty, List } from 'antd';
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

/** The card grid: 1 / 2 / 3 / 4 / 6 columns from the smallest screens up, "load more" below. */
export function ProjectGrid(props: ProjectGridProps) {
  const { t } = useTranslation();
  const { projects, loading, hasMore, loadingMore, onLoadMore, selected } = props;
  return (
    <List<ProjectView>
      data-testid="project-grid"
      grid={{ gutter: 16, xs: 1, sm: 2, md: 3, lg: 4, xl: 6, xxl: 6 }}
      dataSource={projects}
      loading={loading}
      rowKey="id"
      locale={{ emptyText: <Empty data-testid="project-empty" description={t('project.empty')} /> }}
      loadMore={
        hasMore ? (
          <div style={{ textAlign: 'center', margin: '12px 0' }}>
            <Button data-testid="project-load-more" loading={loadingMore} onClick={onLoadMore}>
              {t('project.loadMore')}
            </Button>
          </div>
        ) : null
      }
      renderItem={(project) => (
        <List.Item>
          <ProjectCard
            project={project}
            selected={selected.has(project.id)}
            onSelect={(value) => props.onSelect(project.id, value)}
            onLicence={() => props.onLicence(project)}
            onEdit={() => props.onEdit(project)}
            onToggleStatus={() => props.onToggleStatus(project)}
            onDelete={() => props.onDelete(project)}
          />
        </List.Item>
      )}
    />
  );
}
