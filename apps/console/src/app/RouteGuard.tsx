import { Spin } from 'antd';
import { lazy, Suspense } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import type { PageRoute } from '../routes';
import { useCurrentUser } from '../services/auth';
import { useSessionUser } from '../services/session';
import { canAccess } from './access';

/** Loaded when needed: antd's Result and its illustrations stay out of every page's JavaScript. */
const NoPermission = lazy(() => import('../pages/exception/NoPermission'));

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

/**
 * Renders the matched page, or the no-permission page when the user may not see it. A page that
 * needs a right waits for the current user's rights (login/current/user).
 */
export function RouteGuard() {
  const user = useSessionUser();
  const { pathname } = useLocation();
  const page = usePageRoute();
  const needsRights = page?.right !== undefined;
  const current = useCurrentUser({ enabled: needsRights });
  if (needsRights && user && current.isPending) {
    return <Spin data-testid="route-rights-pending" style={{ display: 'block', margin: '48px auto' }} />;
  }
  if (!canAccess(user, pathname, page, current.data?.rights)) {
    return (
      <Suspense fallback={null}>
        <NoPermission />
      </Suspense>
    );
  }
  return <Outlet />;
}
