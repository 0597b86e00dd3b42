import { DEFAULT_HELP_URL, type Right } from '@gantry/shared';
import type { ComponentType } from 'react';
import type { TextKey } from './i18n';

/**
 * Every page of /app: its path, title, code-split module and who may open it; and the menus built
 * from them. This is the one place that says what exists and who sees it.
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
  dashboard: { path: '/app/dashboard', title: 'menu.dashboard', load: () => import('./pages/dashboard') },
  expiring: {
    path: '/app/dashboard/expiring',
    title: 'dashboard.expiringTitle',
    load: () => import('./pages/dashboard/expiring'),
  },
  changePassword: {
    path: '/app/change_current_password',
    title: 'menu.changePassword',
    load: () => import('./pages/change-password'),
  },
  userCenter: { path: '/app/user/center', title: 'menu.userCenter', load: () => import('./pages/user-center') },
  projects: { path: '/app/model/Project/list', title: 'menu.projects', load: () => import('./pages/projects') },
  projectAdd: { path: '/app/model/Project/add', title: 'project.add', load: () => import('./pages/projects/form') },
  projectEdit: {
    path: '/app/model/Project/:id/edit',
    title: 'project.editProject',
    load: () => import('./pages/projects/form'),
  },
  projectDetail: {
    path: '/app/model/Project/:id/detail',
    title: 'project.detailTitle',
    load: () => import('./pages/projects/detail'),
  },
  projectMedia: {
    path: '/app/model/Project/:id/media',
    title: 'media.page.title',
    load: () => import('./pages/projects/media'),
  },
  projectTables: {
    path: '/app/model/Project/:id/tables',
    title: 'tables.ui.title',
    load: () => import('./pages/projects/tables'),
  },
  templates: { path: '/app/templates', title: 'menu.templates', load: () => import('./pages/templates') },
  schemePreview: {
    path: '/app/schemepreview',
    title: 'menu.schemePreview',
    load: () => import('./pages/templates'),
  },
  backup: { path: '/app/backup', title: 'project.backup', load: () => import('./pages/backup') },
  dbBackup: { path: '/app/db-backup', title: 'project.dbBackup', load: () => import('./pages/db-backup') },
  tenants: {
    path: '/app/model/User/list',
    title: 'menu.tenants',
    load: () => import('./pages/tenants'),
    access: 'admin',
  },
  tenantAdd: {
    path: '/app/model/User/add',
    title: 'tenant.createTitle',
    load: () => import('./pages/tenants/form'),
    access: 'admin',
  },
  tenantEdit: {
    path: '/app/model/User/:id/edit',
    title: 'tenant.editTitle',
    load: () => import('./pages/tenants/form'),
    access: 'admin',
  },
  tenantDetail: {
    path: '/app/model/User/:id/detail',
    title: 'tenant.detailTitle',
    load: () => import('./pages/tenants/detail'),
    access: 'admin',
  },
  tenantProjects: {
    path: '/app/model/User/:id/project',
    title: 'tenant.projectsPage',
    load: () => import('./pages/tenants/projects'),
    access: 'admin',
  },
  audit: { path: '/app/audit', title: 'menu.audit', load: () => import('./pages/audit'), access: 'admin' },
  licence: { path: '/app/license', title: 'menu.licence', load: () => import('./pages/licence'), access: 'admin' },
  licenceUpload: {
    path: '/app/license/upload',
    title: 'licence.uploadTitle',
    load: () => import('./pages/licence/upload'),
    access: 'admin',
  },
  licenceServices: {
    path: '/app/license/services',
    title: 'licence.servicesTitle',
    load: () => import('./pages/licence/services'),
    access: 'admin',
  },
  licenceHistory: {
    path: '/app/model/Licenseinfo/list',
    title: 'licence.historyTitle',
    load: () => import('./pages/licence-history'),
    access: 'admin',
    right: 'log.view',
  },
  settings: {
    path: '/app/settings',
    title: 'menu.settingsBasic',
    load: () => import('./pages/settings'),
    access: 'admin',
  },
  settingsProject: {
    path: '/app/settings/project',
    title: 'menu.settingsProject',
    load: () => import('./pages/project-expand'),
    access: 'admin',
  },
  retention: {
    path: '/app/settings/bbs_realtime',
    title: 'menu.retention',
    load: () => import('./pages/retention'),
    access: 'admin',
  },
  ftpSettings: {
    path: '/app/settings/ftp',
    title: 'menu.ftpStorage',
    load: () => import('./pages/ftp-settings'),
    access: 'admin',
  },
  platformBackup: {
    path: '/app/settings/platform-backup',
    title: 'menu.platformBackup',
    load: () => import('./pages/platform-backup'),
    access: 'admin',
  },
  crossRequest: {
    path: '/app/crossRequest',
    title: 'menu.crossRequest',
    load: () => import('./pages/cross-request'),
    access: 'admin',
  },
} as const satisfies Record<string, PageRoute>;

export type PageName = keyof typeof PAGES;
export const PAGE_LIST: readonly PageRoute[] = Object.values(PAGES);

export const HOME_PATH = PAGES.dashboard.path;
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
