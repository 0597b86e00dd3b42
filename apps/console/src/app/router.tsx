import type { ComponentType } from 'react';
import { createHashRouter, matchRoutes, Navigate, type RouteObject } from 'react-router';
import { PAGE_LIST } from '../routes';
import { bindNavigate } from '../services/navigation';
import { getUser, useSessionUser } from '../services/session';
import { appChildPath, HOME_PATH } from './paths';
import { Root } from './Root';
import { RouteError } from './RouteError';
import type { RouteHandle } from './RouteGuard';

type Load = () => Promise<{ default: ComponentType }>;

/** A code-split route: the module's default export is the route component. */
const lazyPage = (load: Load) => async () => ({ Component: (await load()).default });

/**
 * A code-split route that uses antd: wrapped in antd's provider (locale, toasts), loaded with it.
 * The login route is the one public route without antd (weight/budgets.ts).
 */
const lazyAntdPage = (load: Load) => async () => {
  const [{ default: Page }, { AntdProvider }] = await Promise.all([load(), import('./antdProvider')]);
  return {
    Component: () => (
      <AntdProvider>
        <Page />
      </AntdProvider>
    ),
  };
};

const notFound = lazyAntdPage(() => import('../pages/exception/NotFound'));

/** `/`: the home page when signed in, else straight to the login page (not through /app's layout). */
function HomeRedirect() {
  const user = useSessionUser();
  return <Navigate to={user ? HOME_PATH : '/login'} replace />;
}

/** Public routes, then /app (layout chosen by user and screen) with every page of routes.tsx. */
export function buildRoutes(): RouteObject[] {
  return [
    {
      path: '/',
      element: <Root />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <div className="gantry-route-progress" aria-hidden />,
      children: [
        { index: true, element: <HomeRedirect /> },
        { path: 'login', lazy: lazyPage(() => import('../pages/login')) },
        { path: 'regest', lazy: lazyAntdPage(() => import('../pages/regest')) },
        {
          path: 'app',
          lazy: lazyAntdPage(() => import('../layouts')),
          children: [
            { index: true, element: <Navigate to={HOME_PATH} replace /> },
            ...PAGE_LIST.map(
              (page): RouteObject => ({
                path: appChildPath(page.path),
                handle: { page } satisfies RouteHandle,
                lazy: lazyPage(page.load),
              }),
            ),
            // inside the layout, which already provides antd
            { path: '*', lazy: lazyPage(() => import('../pages/exception/NotFound')) },
          ],
        },
        { path: '*', lazy: notFound },
      ],
    },
  ];
}

/**
 * Starts downloading the modules of the route in the address bar at once, while the entry still
 * waits for its first answers (admin check, language): the router then finds them loaded.
 */
export function preloadRoute(hashPath: string): void {
  let path = hashPath.replace(/^#/, '').split('?')[0] || '/';
  if (path === '/') path = getUser() ? HOME_PATH : '/login';
  for (const match of matchRoutes(buildRoutes(), path) ?? []) {
    const lazy = match.route.lazy;
    if (typeof lazy === 'function') void lazy().catch(() => undefined);
  }
}

export function createAppRouter() {
  const router = createHashRouter(buildRoutes());
  bindNavigate((to, options) => void router.navigate(to, options));
  return router;
}
