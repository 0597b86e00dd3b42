/**
 * JavaScript each route makes the browser download before it can show itself, gzip -9, in KiB:
 * the entry (index.html's script and everything it imports statically), then, for pages under /app,
 * the layout, then the page's own module, each with its static imports. Chunks a page imports
 * later (a dialog opened on a click) are not counted. `weight/routeWeight.test.ts` fails the build
 * over any of these; every page module of the console must be listed here.
 *
 * Raise a budget only with a reason written in docs/DECISIONS.md ("Issue 10: route budgets").
 */
export interface RouteBudget {
  /** The hash route, for the report. */
  route: string;
  /** Source modules the route loads, in order (paths relative to apps/console). */
  modules: readonly string[];
  /** Upper bound of the gzip size of the JavaScript, KiB. */
  kib: number;
}

const LAYOUT = 'src/layouts/index.tsx';
const page = (route: string, module: string, kib: number): RouteBudget => ({
  route,
  modules: [LAYOUT, `src/pages/${module}`],
  kib,
});

export const ROUTE_BUDGETS: readonly RouteBudget[] = [
  { route: '/login', modules: ['src/pages/login/index.tsx'], kib: 200 },
  { route: '/regest', modules: ['src/pages/regest/index.tsx'], kib: 200 },
  page('/app/dashboard', 'dashboard/index.tsx', 350),
  page('/app/model/Project/list', 'projects/index.tsx', 350),
  page('/app/model/Project/add', 'projects/form/index.tsx', 400),
  page('/app/model/Project/:id/detail', 'projects/detail/index.tsx', 350),
  page('/app/model/User/list', 'tenants/index.tsx', 350),
  page('/app/model/User/add', 'tenants/form/index.tsx', 400),
  page('/app/model/User/:id/detail', 'tenants/detail/index.tsx', 350),
  page('/app/model/User/:id/project', 'tenants/projects/index.tsx', 350),
  page('/app/audit', 'audit/index.tsx', 350),
  page('/app/license', 'license/index.tsx', 350),
  page('/app/license/upload', 'license/upload/index.tsx', 350),
  page('/app/license/services', 'license/services/index.tsx', 350),
  page('/app/model/Licenseinfo/list', 'licence-history/index.tsx', 350),
  page('/app/settings', 'settings/index.tsx', 400),
  page('/app/settings/bbs_realtime', 'retention/index.tsx', 350),
  page('/app/crossRequest', 'cross-request/index.tsx', 350),
  page('/app/settings/project', 'coming-soon/index.tsx', 350),
  page('/app/change_current_password', 'change-password/index.tsx', 350),
  page('/app/user/center', 'user-center/index.tsx', 350),
  page('/app/(unknown)', 'exception/NotFound.tsx', 350),
];
