import type { ProjectView } from '@gantry/shared';
import { Button, Empty, Spin } from 'antd';
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

/**
 * As many columns as cards of at least 320 px fit in the content area (never more than six), so the
 * count follows the space the page really has (sidebar open or collapsed, admin or tenant layout):
 * one on a phone, two at 1,000 px, three at 1,440 px with the sidebar (docs/DECISIONS.md, issue 10).
 * The grid stretches each card to its row's height.
 */

/** The card grid with its empty state, loading indicator and "load more" below. */
export function ProjectGrid(props: ProjectGridProps) {
  const { t } = useTranslation();
  const { projects, loading, hasMore, loadingMore, onLoadMore, selected } = props;
  if (!loading && projects.length === 0) {
    return <Empty data-testid="project-empty" description={t('project.empty')} style={{ padding: '48px 0' }} />;
  }
  return (
    <Spin spinning={loading} data-testid="project-grid-loading">
      <div className="gantry-card-grid" data-testid="project-grid" style={{ minHeight: loading ? 160 : undefined }}>
        {projects.map((project) => (
          <ProjectCard
            key={project.id}
            project={project}
            selected={selected.has(project.id)}
            onSelect={(value) => props.onSelect(project.id, value)}
            onLicence={() => props.onLicence(project)}
            onEdit={() => props.onEdit(project)}
            onToggleStatus={() => props.onToggleStatus(project)}
            onDelete={() => props.onDelete(project)}
          />
        ))}
      </div>
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
