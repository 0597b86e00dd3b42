/**
 * The console's route map: the hash path of every page under /app, as plain data, and the builders of
 * concrete paths (parameters filled, query added). `routes.tsx` (titles, code, access, menus) and
 * every page name their routes through this module only. It imports nothing, so a page never needs
 * `routes.tsx` (which imports every page) and no import cycle runs through the lazy routes; a
 * '/app/…' string appears nowhere else in the console's source (`paths.test.ts`).
 */

/** The hash path under which every signed-in page lives (the layout's route). */
export const APP_ROOT = '/app';

export const PATHS = {
  dashboard: '/app/dashboard',
  expiring: '/app/dashboard/expiring',
  changePassword: '/app/change_current_password',
  userCenter: '/app/user/center',
  projects: '/app/model/Project/list',
  projectAdd: '/app/model/Project/add',
  projectEdit: '/app/model/Project/:id/edit',
  projectDetail: '/app/model/Project/:id/detail',
  projectMedia: '/app/model/Project/:id/media',
  projectTables: '/app/model/Project/:id/tables',
  templates: '/app/templates',
  schemePreview: '/app/schemepreview',
  backup: '/app/backup',
  dbBackup: '/app/db-backup',
  tenants: '/app/model/User/list',
  tenantAdd: '/app/model/User/add',
  tenantEdit: '/app/model/User/:id/edit',
  tenantDetail: '/app/model/User/:id/detail',
  tenantProjects: '/app/model/User/:id/project',
  audit: '/app/audit',
  licence: '/app/license',
  licenceUpload: '/app/license/upload',
  licenceServices: '/app/license/services',
  licenceHistory: '/app/model/Licenseinfo/list',
  settings: '/app/settings',
  settingsProject: '/app/settings/project',
  retention: '/app/settings/bbs_realtime',
  ftpSettings: '/app/settings/ftp',
  ssoSettings: '/app/settings/sso',
  platformBackup: '/app/settings/platform-backup',
  crossRequest: '/app/crossRequest',
} as const;

export type PageName = keyof typeof PATHS;

/** Where a signed-in user lands. */
export const HOME_PATH = PATHS.dashboard;

/** A page's path relative to the /app route (`/app/model/Project/list` → `model/Project/list`). */
export function appChildPath(path: string): string {
  return path.startsWith(`${APP_ROOT}/`) ? path.slice(APP_ROOT.length + 1) : path;
}

/** The `:name` parameters of a path pattern. */
type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<Rest>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type PathParams<N extends PageName> = Record<ParamNames<(typeof PATHS)[N]>, string>;

/** Query parameters; an undefined one is left out. */
export type PathQuery = Readonly<Record<string, string | undefined>>;

/** A page with parameters takes them first; every page may take a query. */
type PathArgs<N extends PageName> = [ParamNames<(typeof PATHS)[N]>] extends [never]
  ? [query?: PathQuery]
  : [params: PathParams<N>, query?: PathQuery];

/**
 * The concrete path of a page: `pathTo('projectEdit', { id: 'p 1' })` is `/app/model/Project/p%201/edit`,
 * `pathTo('dbBackup', { projectId: 'p1', tab: 'cycles' })` is `/app/db-backup?projectId=p1&tab=cycles`
 * (parameters and query values URI-encoded).
 */
export function pathTo<N extends PageName>(name: N, ...args: PathArgs<N>): string;
export function pathTo(name: PageName, ...args: [PathQuery?, PathQuery?]): string {
  const pattern: string = PATHS[name];
  const hasParams = pattern.includes('/:');
  const params = hasParams ? (args[0] ?? {}) : {};
  const query = hasParams ? args[1] : args[0];
  const path = pattern.replace(/:([A-Za-z]+)/g, (_match, key: string) => encodeURIComponent(params[key] ?? ''));
  const search = Object.entries(query ?? {})
    .flatMap(([key, value]) => (value === undefined ? [] : [`${encodeURIComponent(key)}=${encodeURIComponent(value)}`]))
    .join('&');
  return search ? `${path}?${search}` : path;
}
