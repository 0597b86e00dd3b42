import { PROJECT_CARD_PAGE, PROJECT_LIST_PAGE } from '@gantry/shared';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { listProjects, type ProjectPage, type Where } from '../../services/project';

/** Every project list query starts with this key: invalidate it after a change. */
export const PROJECTS_KEY = 'projects';

/**
 * The skip of the next card page, or undefined: more is offered only when the last page came back
 * full (console.md §9) and the total says something is left.
 */
export function nextCardSkip(pages: readonly ProjectPage[], pageSize = PROJECT_CARD_PAGE): number | undefined {
  const last = pages.at(-1);
  if (!last || last.items.length < pageSize) return undefined;
  const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
  return loaded < last.count ? loaded : undefined;
}

/** The card grid: pages of PROJECT_CARD_PAGE, appended by "load more". */
export function useProjectCards(where: Where, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: [PROJECTS_KEY, 'cards', where],
    queryFn: ({ pageParam, signal }) =>
      listProjects({ filter: where, skip: pageParam, limit: PROJECT_CARD_PAGE }, signal),
    initialPageParam: 0,
    getNextPageParam: (_last, pages) => nextCardSkip(pages),
    enabled,
  });
}

/** The list view: one page of PROJECT_LIST_PAGE rows. */
export function useProjectTable(where: Where, page: number, enabled: boolean) {
  return useQuery({
    queryKey: [PROJECTS_KEY, 'table', where, page],
    queryFn: ({ signal }) =>
      listProjects({ filter: where, skip: (page - 1) * PROJECT_LIST_PAGE, limit: PROJECT_LIST_PAGE }, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}
