import type { ComponentType } from 'react';
import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import { HOME_PATH, PAGE_LIST } from '../routes';
import { bindNavigate } from '../services/navigation';
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

/** Public routes, then /app (layout chosen by user and screen) with every page of routes.tsx. */
export function buildRoutes(): RouteObject[] {
  return [
    {
      path: '/',
      element: <Root />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <div className="gantry-route-progress" aria-hidden />,
      children: [
        { index: true, element: <Navigate to={HOME_PATH} replace /> },
        { path: 'login', lazy: lazyPage(() => import('../pages/login')) },
        { path: 'regest', lazy: lazyAntdPage(() => import('../pages/regest')) },
        {
          path: 'app',
          lazy: lazyAntdPage(() => import('../layouts')),
          children: [
            { index: true, element: <Navigate to={HOME_PATH} replace /> },
            ...PAGE_LIST.map(
              (page): RouteObject => ({
                path: page.path.replace(/^\/app\//, ''),
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

export function createAppRouter() {
  const router = createHashRouter(buildRoutes());
  bindNavigate((to, options) => void router.navigate(to, options));
  return router;
}
