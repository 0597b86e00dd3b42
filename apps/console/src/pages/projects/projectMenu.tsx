import type { ProjectView } from '@gantry/shared';
import type { MenuProps } from 'antd';
import type { TFunction } from 'i18next';
import { pathTo } from '../../app/paths';
import { openSite } from '../../components/OpenSite';
import { navigateTo } from '../../services/navigation';

/**
 * Every action on a project, in the one order the card's and the list row's "more" menus both show
 * (issue 32): the screens of the project first, then the changes, delete last.
 */
export const PROJECT_ACTIONS = [
  'detail',
  'licence',
  'front',
  'admin',
  'media',
  'tables',
  'backup',
  'dbBackup',
  'edit',
  'status',
  'delete',
] as const;
export type ProjectAction = (typeof PROJECT_ACTIONS)[number];

/** Backup entries are for platform administrators (backups-data-designer.md §6). */
const ADMIN_ONLY: ReadonlySet<ProjectAction> = new Set(['backup', 'dbBackup']);

/** What the backup entries' submenus offer, in the spec's order (backups-data-designer.md §2). */
export const BACKUP_STEPS = {
  backup: ['create', 'upload', 'restore'],
  dbBackup: ['upload', 'create', 'restore', 'ftpRestore'],
} as const;

/**
 * The actions `user` may use on a project, in menu order. A tenant sees only its own projects (the
 * server scopes the list) and may use every action on them but the backups.
 */
export function projectActions(user: { isAdmin: boolean }): ProjectAction[] {
  return PROJECT_ACTIONS.filter((action) => user.isAdmin || !ADMIN_ONLY.has(action));
}

/** What the page does for the actions that are not a plain navigation. */
export interface ProjectMenuHandlers {
  onLicence: (project: ProjectView) => void;
  onToggleStatus: (project: ProjectView) => void;
  onDelete: (project: ProjectView) => void;
}

/** Runs `action` on `project`; `step` is a backup submenu's entry (back up, upload, …). */
export function runProjectAction(
  project: ProjectView,
  action: ProjectAction,
  handlers: ProjectMenuHandlers,
  step?: string,
): void {
  const id = project.id;
  switch (action) {
    case 'detail':
      navigateTo(pathTo('projectDetail', { id }));
      return;
    case 'licence':
      handlers.onLicence(project);
      return;
    case 'front':
    case 'admin':
      openSite(project, action);
      return;
    case 'media':
      navigateTo(pathTo('projectMedia', { id }));
      return;
    case 'tables':
      navigateTo(pathTo('projectTables', { id }));
      return;
    case 'backup':
    case 'dbBackup':
      navigateTo(pathTo(action, { projectId: id, action: step }));
      return;
    case 'edit':
      navigateTo(pathTo('projectEdit', { id }));
      return;
    case 'status':
      handlers.onToggleStatus(project);
      return;
    case 'delete':
      handlers.onDelete(project);
      return;
  }
}

/** The steps of a backup entry with their texts. */
function backupSteps(t: TFunction, action: 'backup' | 'dbBackup'): [string, string][] {
  return action === 'backup'
    ? BACKUP_STEPS.backup.map((step) => [step, t(`project.backup.${step}`)])
    : BACKUP_STEPS.dbBackup.map((step) => [step, t(`project.dbBackup.${step}`)]);
}

const LABELS = {
  detail: 'project.detail',
  licence: 'project.licenceDetail',
  front: 'project.openFront',
  admin: 'project.openAdmin',
  media: 'project.media',
  tables: 'project.tables',
  backup: 'project.backup',
  dbBackup: 'project.dbBackup',
  edit: 'project.edit',
  delete: 'project.delete',
} as const;

/**
 * The "more" menu of a project (card or list row): every action the user may use, each item with the
 * test id `{testIdPrefix}-menu-{action}`. A backup entry opens its page on a click and offers its
 * steps (back up, upload, …) in a submenu.
 */
export function projectMenu(
  project: ProjectView,
  user: { isAdmin: boolean },
  t: TFunction,
  testIdPrefix: string,
  handlers: ProjectMenuHandlers,
): NonNullable<MenuProps['items']> {
  const prefix = `${testIdPrefix}-menu`;
  const label = (action: ProjectAction) =>
    t(action === 'status' ? (project.status ? 'project.disable' : 'project.enable') : LABELS[action]);
  return projectActions(user).flatMap((action): NonNullable<MenuProps['items']> => {
    const span = (
      <span key={action} data-testid={`${prefix}-${action}`}>
        {label(action)}
      </span>
    );
    const run = () => runProjectAction(project, action, handlers);
    if (action === 'backup' || action === 'dbBackup') {
      return [
        {
          key: action,
          label: span,
          onTitleClick: run,
          children: backupSteps(t, action).map(([step, text]) => ({
            key: `${action}:${step}`,
            label: <span data-testid={`${prefix}-${action}-${step}`}>{text}</span>,
            onClick: () => runProjectAction(project, action, handlers, step),
          })),
        },
      ];
    }
    const item = { key: action, label: span, onClick: run, danger: action === 'delete' };
    return action === 'delete' ? [{ type: 'divider' }, item] : [item];
  });
}
