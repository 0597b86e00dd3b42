import type { ProjectView } from '@gantry/shared';
import { Button, Empty, Grid, Spin } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { cardColumns, pastThreshold } from '../cardGrid';
import type { ProjectMenuHandlers } from '../projectMenu';
import { ProjectCard } from './ProjectCard';

export interface ProjectGridProps extends ProjectMenuHandlers {
  projects: ProjectView[];
  isAdmin: boolean;
  loading: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  selected: ReadonlySet<string>;
  onSelect: (id: string, selected: boolean) => void;
}

/**
 * The card grid with its empty state, loading indicator and "load more" below: the columns follow
 * antd's breakpoints (cardGrid.ts), the grid stretches each card to its row's height, and scrolling
 * past 80 % of the page loads the next page when there is one (the button stays for keyboards).
 */
export function ProjectGrid(props: ProjectGridProps) {
  const { t } = useTranslation();
  const { projects, isAdmin, loading, hasMore, loadingMore, onLoadMore, selected } = props;
  const columns = cardColumns(Grid.useBreakpoint());
  useScrollToLoad(hasMore && !loadingMore && !loading, onLoadMore);

  if (!loading && projects.length === 0) {
    return <Empty data-testid="project-empty" description={t('project.empty')} style={{ padding: '48px 0' }} />;
  }
  return (
    <Spin spinning={loading} data-testid="project-grid-loading">
      <div
        className="gantry-card-grid"
        data-testid="project-grid"
        data-columns={columns}
        style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, minHeight: loading ? 160 : undefined }}
      >
        {projects.map((project) => (
          <ProjectCard
            key={project.id}
            project={project}
            isAdmin={isAdmin}
            selected={selected.has(project.id)}
            onSelect={(value) => props.onSelect(project.id, value)}
            onLicence={props.onLicence}
            onToggleStatus={props.onToggleStatus}
            onDelete={props.onDelete}
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

/** Calls `load` when the window is scrolled past the threshold while `armed`. */
function useScrollToLoad(armed: boolean, load: () => void): void {
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    if (!armed) return;
    const onScroll = () => {
      const page = document.documentElement;
      if (pastThreshold(window.scrollY, window.innerHeight, page.scrollHeight)) latest.current();
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [armed]);
}
