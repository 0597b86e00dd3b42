import type { ComponentType } from 'react';
import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import { HOME_PATH, PAGE_LIST } from '../routes';
import { bindNavigate } from '../services/navigation';
import { Root } from './Root';
import { RouteError } from './RouteError';
import type { RouteHandle } from './RouteGuard';

/** A code-split route: the module's default export is the route component. */
const lazyPage = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

const notFound = lazyPage(() => import('../pages/exception/NotFound'));

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
        { path: 'regest', lazy: lazyPage(() => import('../pages/regest')) },
        {
          path: 'app',
          lazy: lazyPage(() => import('../layouts')),
          children: [
            { index: true, element: <Navigate to={HOME_PATH} replace /> },
            ...PAGE_LIST.map(
              (page): RouteObject => ({
                path: page.path.replace(/^\/app\//, ''),
                handle: { page } satisfies RouteHandle,
                lazy: lazyPage(page.load),
              }),
            ),
            { path: '*', lazy: notFound },
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
