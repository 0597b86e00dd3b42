import { Outlet, useLocation, useMatches } from 'react-router';
import NoPermission from '../pages/exception/NoPermission';
import type { PageRoute } from '../routes';
import { useSessionUser } from '../services/session';
import { canAccess } from './access';

export interface RouteHandle {
  page?: PageRoute;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && 'page' in handle;
}

/** The page declared for the deepest matched route, if any. */
export function usePageRoute(): PageRoute | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle;
    if (isRouteHandle(handle)) return handle.page;
  }
  return undefined;
}

/** Renders the matched page, or the no-permission page when the user may not see it. */
export function RouteGuard() {
  const user = useSessionUser();
  const { pathname } = useLocation();
  const page = usePageRoute();
  if (!canAccess(user, pathname, page)) return <NoPermission />;
  return <Outlet />;
}
