import { DEFAULT_HELP_URL, type Right } from '@gantry/shared';
import type { ComponentType } from 'react';
import { PATHS, type PageName } from './app/paths';
import type { TextKey } from './i18n';

/**
 * Every page of /app: its path (from the route map, `app/paths.ts`), title, code-split module and
 * who may open it; and the menus built from them. This is the one place that says what exists and
 * who sees it. It imports every page, so no page imports it: pages name routes through `app/paths.ts`.
 */
export type TKey = TextKey;
type PageModule = { default: ComponentType };

export interface PageRoute {
  /** Absolute hash path (what the address bar shows after `#`). */
  path: string;
  title: TKey;
  load: () => Promise<PageModule>;
  /** `admin`: platform administrators only. Omitted: every signed-in user. */
  access?: 'admin';
  /** A right the user must also hold (from login/current/user `rights`), e.g. 'log.view'. */
  right?: Right;
}

export const PAGES = {
  dashboard: { path: PATHS.dashboard, title: 'menu.dashboard', load: () => import('./pages/dashboard') },
  expiring: {
    path: PATHS.expiring,
    title: 'dashboard.expiringTitle',
    load: () => import('./pages/dashboard/expiring'),
  },
  changePassword: {
    path: PATHS.changePassword,
    title: 'menu.changePassword',
    load: () => import('./pages/change-password'),
  },
  userCenter: { path: PATHS.userCenter, title: 'menu.userCenter', load: () => import('./pages/user-center') },
  projects: { path: PATHS.projects, title: 'menu.projects', load: () => import('./pages/projects') },
  projectAdd: { path: PATHS.projectAdd, title: 'project.add', load: () => import('./pages/projects/form') },
  projectEdit: {
    path: PATHS.projectEdit,
    title: 'project.editProject',
    load: () => import('./pages/projects/form'),
  },
  projectDetail: {
    path: PATHS.projectDetail,
    title: 'project.detailTitle',
    load: () => import('./pages/projects/detail'),
  },
  projectMedia: {
    path: PATHS.projectMedia,
    title: 'media.page.title',
    load: () => import('./pages/projects/media'),
  },
  projectTables: {
    path: PATHS.projectTables,
    title: 'tables.ui.title',
    load: () => import('./pages/projects/tables'),
  },
  templates: { path: PATHS.templates, title: 'menu.templates', load: () => import('./pages/templates') },
  schemePreview: {
    path: PATHS.schemePreview,
    title: 'menu.schemePreview',
    load: () => import('./pages/templates'),
  },
  backup: { path: PATHS.backup, title: 'project.backup', load: () => import('./pages/backup') },
  dbBackup: { path: PATHS.dbBackup, title: 'project.dbBackup', load: () => import('./pages/db-backup') },
  tenants: {
    path: PATHS.tenants,
    title: 'menu.tenants',
    load: () => import('./pages/tenants'),
    access: 'admin',
  },
  tenantAdd: {
    path: PATHS.tenantAdd,
    title: 'tenant.createTitle',
    load: () => import('./pages/tenants/form'),
    access: 'admin',
  },
  tenantEdit: {
    path: PATHS.tenantEdit,
    title: 'tenant.editTitle',
    load: () => import('./pages/tenants/form'),
    access: 'admin',
  },
  tenantDetail: {
    path: PATHS.tenantDetail,
    title: 'tenant.detailTitle',
    load: () => import('./pages/tenants/detail'),
    access: 'admin',
  },
  tenantProjects: {
    path: PATHS.tenantProjects,
    title: 'tenant.projectsPage',
    load: () => import('./pages/tenants/projects'),
    access: 'admin',
  },
  audit: { path: PATHS.audit, title: 'menu.audit', load: () => import('./pages/audit'), access: 'admin' },
  licence: { path: PATHS.licence, title: 'menu.licence', load: () => import('./pages/licence'), access: 'admin' },
  licenceUpload: {
    path: PATHS.licenceUpload,
    title: 'licence.uploadTitle',
    load: () => import('./pages/licence/upload'),
    access: 'admin',
  },
  licenceServices: {
    path: PATHS.licenceServices,
    title: 'licence.servicesTitle',
    load: () => import('./pages/licence/services'),
    access: 'admin',
  },
  licenceHistory: {
    path: PATHS.licenceHistory,
    title: 'licence.historyTitle',
    load: () => import('./pages/licence-history'),
    access: 'admin',
    right: 'log.view',
  },
  settings: {
    path: PATHS.settings,
    title: 'menu.settingsBasic',
    load: () => import('./pages/settings'),
    access: 'admin',
  },
  settingsProject: {
    path: PATHS.settingsProject,
    title: 'menu.settingsProject',
    load: () => import('./pages/project-expand'),
    access: 'admin',
  },
  retention: {
    path: PATHS.retention,
    title: 'menu.retention',
    load: () => import('./pages/retention'),
    access: 'admin',
  },
  ftpSettings: {
    path: PATHS.ftpSettings,
    title: 'menu.ftpStorage',
    load: () => import('./pages/ftp-settings'),
    access: 'admin',
  },
  ssoSettings: {
    path: PATHS.ssoSettings,
    title: 'menu.ssoSettings',
    load: () => import('./pages/sso-settings'),
    access: 'admin',
  },
  platformBackup: {
    path: PATHS.platformBackup,
    title: 'menu.platformBackup',
    load: () => import('./pages/platform-backup'),
    access: 'admin',
  },
  crossRequest: {
    path: PATHS.crossRequest,
    title: 'menu.crossRequest',
    load: () => import('./pages/cross-request'),
    access: 'admin',
  },
} as const satisfies Record<PageName, PageRoute>;

export const PAGE_LIST: readonly PageRoute[] = Object.values(PAGES);
/**
 * Help (opened in a new window): the user guide the server ships, unless settings point elsewhere
 * (settings.helpUrl; layouts/components/HelpLink.tsx).
 */
export const HELP_URL = DEFAULT_HELP_URL;

export type MenuIcon = 'home' | 'project' | 'team' | 'licence' | 'setting' | 'help' | 'lock' | 'user' | 'audit';

export interface MenuEntry {
  key: string;
  title: TKey;
  icon?: MenuIcon;
  page?: PageName;
  href?: string;
  children?: MenuEntry[];
  /** Shown in the bottom tabs of the mobile layout. */
  common?: boolean;
}

/** The administrator's sidebar. */
export const ADMIN_MENU: MenuEntry[] = [
  { key: 'projects', title: 'menu.projects', icon: 'project', page: 'projects', common: true },
  { key: 'templates', title: 'menu.templates', icon: 'project', page: 'templates' },
  { key: 'tenants', title: 'menu.tenants', icon: 'team', page: 'tenants' },
  { key: 'audit', title: 'menu.audit', icon: 'audit', page: 'audit' },
  { key: 'licence', title: 'menu.licence', icon: 'licence', page: 'licence' },
  {
    key: 'settings',
    title: 'menu.settings',
    icon: 'setting',
    children: [
      { key: 'settings-basic', title: 'menu.settingsBasic', page: 'settings' },
      { key: 'settings-project', title: 'menu.settingsProject', page: 'settingsProject' },
      { key: 'cross-request', title: 'menu.crossRequest', page: 'crossRequest' },
      { key: 'retention', title: 'menu.retention', page: 'retention' },
      { key: 'ftp-storage', title: 'menu.ftpStorage', page: 'ftpSettings' },
      { key: 'sso-settings', title: 'menu.ssoSettings', page: 'ssoSettings' },
      { key: 'platform-backup', title: 'menu.platformBackup', page: 'platformBackup' },
    ],
  },
  { key: 'help', title: 'menu.help', icon: 'help', href: HELP_URL },
];

/** The tenant's top bar (logout is added by the layout). */
export const TENANT_MENU: MenuEntry[] = [
  { key: 'projects', title: 'menu.myProjects', icon: 'project', page: 'projects', common: true },
  { key: 'templates', title: 'menu.templates', icon: 'project', page: 'templates' },
  { key: 'change-password', title: 'menu.changePassword', icon: 'lock', page: 'changePassword' },
  { key: 'user-center', title: 'menu.userCenter', icon: 'user', page: 'userCenter', common: true },
];

/** Bottom tabs on small screens: home plus the entries marked common, that the user may open. */
export function commonMenu(isAdmin: boolean): MenuEntry[] {
  const home: MenuEntry = { key: 'home', title: 'menu.dashboard', icon: 'home', page: 'dashboard' };
  const flat = (entries: MenuEntry[]): MenuEntry[] => entries.flatMap((e) => [e, ...flat(e.children ?? [])]);
  const marked = flat(isAdmin ? ADMIN_MENU : TENANT_MENU).filter((e) => e.common);
  const userCenter: MenuEntry = { key: 'user-center', title: 'menu.userCenter', icon: 'user', page: 'userCenter' };
  const list = [home, ...marked];
  if (!list.some((e) => e.page === 'userCenter')) list.push(userCenter);
  return list;
}
