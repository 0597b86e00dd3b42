import type { ProjectView } from '@gantry/shared';
import { lazy, Suspense, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '../../services/session';
import { FilterChips } from './components/FilterChips';
import { ProjectGrid } from './components/ProjectGrid';
import { Toolbar } from './components/Toolbar';
import { useOwnerOptions } from './options';
import {
  combineWhere,
  FILTER_FIELDS,
  filterWhere,
  type ProjectFilter,
  type ProjectScope,
  readFilter,
  scopeWhere,
  writeFilter,
} from './projectFilter';
import { useProjectActions } from './useProjectActions';
import { PROJECTS_KEY, useProjectCards, useProjectTable } from './useProjectLists';
import { type ProjectViewMode, readViewMode, writeViewMode } from './viewMode';

// Loaded after the list (with the extension fields' editors), not with it (weight/budgets.ts).
const BatchChangeButton = lazy(() =>
  import('../project-expand/BatchChangeButton').then((module) => ({ default: module.BatchChangeButton })),
);

// Loaded when first shown (the list view, the filter drawer, the licence dialog): the card view the
// page opens with does not pay for the table, the date pickers and the forms (weight/budgets.ts).
const ProjectTable = lazy(() => import('./components/ProjectTable').then((m) => ({ default: m.ProjectTable })));
const FilterDrawer = lazy(() => import('./components/FilterDrawer').then((m) => ({ default: m.FilterDrawer })));
const LicenceModal = lazy(() => import('./components/LicenceModal').then((m) => ({ default: m.LicenceModal })));

type Selection = ReadonlyMap<string, Pick<ProjectView, 'id' | 'name' | 'status'>>;

/** /app/model/Project/list: the projects as cards or a table, with filter, scope and batch delete. */
export default function ProjectListPage() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const isAdmin = user?.isAdmin === true;
  const ownId = user?.id ?? '';
  const username = user?.username ?? '';

  const [mode, setMode] = useState<ProjectViewMode>(() => readViewMode(username));
  const [filter, setFilterState] = useState<ProjectFilter>(readFilter);
  const [scope, setScope] = useState<ProjectScope>('all');
  const [page, setPage] = useState(1);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [selection, setSelection] = useState<Selection>(new Map());
  const [licenceOf, setLicenceOf] = useState<ProjectView | null>(null);
  // mounted from their first opening on, so that closing them animates
  const drawerUsed = useOnceTrue(drawerOpen);
  const licenceUsed = useOnceTrue(licenceOf !== null);

  const owners = useOwnerOptions(t, isAdmin);
  const ownerName = (id: string) => owners.options.find((o) => o.value === id)?.label ?? id;
  const where = useMemo(
    () => combineWhere(isAdmin ? scopeWhere(scope, ownId) : {}, filterWhere(filter)),
    [isAdmin, scope, ownId, filter],
  );
  const cards = useProjectCards(where, mode === 'card');
  const table = useProjectTable(where, page, mode === 'list');
  const actions = useProjectActions();

  const setFilter = (next: ProjectFilter) => {
    writeFilter(next);
    setFilterState(readFilter());
    setPage(1);
  };
  const unselect = (ids: readonly string[]) =>
    setSelection((current) => new Map([...current].filter(([id]) => !ids.includes(id))));
  const select = (project: ProjectView, on: boolean) =>
    setSelection((current) => {
      const next = new Map(current);
      if (on) next.set(project.id, project);
      else next.delete(project.id);
      return next;
    });

  const remove = (project: ProjectView) => actions.remove(project, () => unselect([project.id]));
  const batchDelete = () => actions.removeMany([...selection.values()], (result) => unselect(result.deleted));
  const cardProjects = cards.data?.pages.flatMap((p) => p.items) ?? [];

  return (
    <div data-testid="project-list">
      <Toolbar
        isAdmin={isAdmin}
        search={filter.name ?? ''}
        onSearch={(name) => setFilter({ ...filter, name: name || undefined })}
        activeFilters={FILTER_FIELDS.filter((f) => filter[f] !== undefined).length}
        onOpenFilter={() => setDrawerOpen(true)}
        scope={scope}
        onScope={(next) => {
          setScope(next);
          setPage(1);
        }}
        mode={mode}
        onMode={(next) => {
          setMode(next);
          writeViewMode(username, next);
        }}
        selectedCount={selection.size}
        onBatchDelete={batchDelete}
        batchChange={
          <Suspense fallback={null}>
            <BatchChangeButton ids={[...selection.keys()]} listKey={PROJECTS_KEY} />
          </Suspense>
        }
      />
      <FilterChips
        filter={filter}
        ownerName={ownerName}
        onRemove={(field) => setFilter({ ...filter, [field]: undefined })}
        onClear={() => setFilter({})}
      />
      {mode === 'card' ? (
        <ProjectGrid
          projects={cardProjects}
          isAdmin={isAdmin}
          loading={cards.isPending}
          hasMore={cards.hasNextPage}
          loadingMore={cards.isFetchingNextPage}
          onLoadMore={() => {
            if (!cards.isFetchingNextPage) void cards.fetchNextPage({ cancelRefetch: false });
          }}
          selected={new Set(selection.keys())}
          onSelect={(id, on) => {
            const project = cardProjects.find((p) => p.id === id);
            if (project) select(project, on);
          }}
          onLicence={setLicenceOf}
          onToggleStatus={actions.toggleStatus}
          onDelete={remove}
        />
      ) : (
        <Suspense fallback={<div className="gantry-route-progress" aria-hidden />}>
          <ProjectTable
            projects={table.data?.items ?? []}
            total={table.data?.count ?? 0}
            page={page}
            loading={table.isPending || table.isFetching}
            onPage={setPage}
            selected={new Set(selection.keys())}
            onSelectRows={(ids, rows) =>
              setSelection((current) => {
                const next = new Map<string, Pick<ProjectView, 'id' | 'name' | 'status'>>();
                for (const id of ids) {
                  const known = rows.find((r) => r.id === id) ?? current.get(id);
                  if (known) next.set(id, known);
                }
                return next;
              })
            }
            isAdmin={isAdmin}
            onLicence={setLicenceOf}
            onToggleStatus={actions.toggleStatus}
            onDelete={remove}
          />
        </Suspense>
      )}
      {drawerUsed ? (
        <Suspense fallback={null}>
          <FilterDrawer
            open={drawerOpen}
            value={filter}
            owners={isAdmin ? owners.options : null}
            onApply={(next) => {
              setFilter(next);
              setDrawerOpen(false);
            }}
            onClose={() => setDrawerOpen(false)}
          />
        </Suspense>
      ) : null}
      {licenceUsed ? (
        <Suspense fallback={null}>
          <LicenceModal project={licenceOf} onClose={() => setLicenceOf(null)} />
        </Suspense>
      ) : null}
      {actions.contextHolder}
    </div>
  );
}

/** True from the first render where `value` was true on. */
function useOnceTrue(value: boolean): boolean {
  const [seen, setSeen] = useState(value);
  if (value && !seen) setSeen(true);
  return seen || value;
}
