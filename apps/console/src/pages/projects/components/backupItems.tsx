import type { ItemType } from 'antd/es/menu/interface';
import type { TFunction } from 'i18next';
import { pathTo } from '../../../app/paths';
import { navigateTo } from '../../../services/navigation';

const ACTIONS = ['create', 'upload', 'restore'] as const;
const PREFIX = 'backup:';
/** Database backup management's entries, in the spec's order (§2). */
const DB_ACTIONS = ['upload', 'create', 'restore', 'ftpRestore'] as const;
const DB_PREFIX = 'dbBackup:';

/**
 * The project menus' backup entries (backups-data-designer.md §2): project backup management with
 * back up, upload and restore, each opening /app/backup for the project; database backup management
 * with upload, back up, restore and FTP restore, each opening /app/db-backup for the project.
 */
export function backupItems(t: TFunction, testIdPrefix: string): ItemType[] {
  return [
    {
      key: 'backup',
      label: <span data-testid={`${testIdPrefix}-backup`}>{t('project.backup')}</span>,
      children: ACTIONS.map((action) => ({
        key: `${PREFIX}${action}`,
        label: <span data-testid={`${testIdPrefix}-backup-${action}`}>{t(`project.backup.${action}`)}</span>,
      })),
    },
    {
      key: 'dbBackup',
      label: <span data-testid={`${testIdPrefix}-dbBackup`}>{t('project.dbBackup')}</span>,
      children: DB_ACTIONS.map((action) => ({
        key: `${DB_PREFIX}${action}`,
        label: <span data-testid={`${testIdPrefix}-dbBackup-${action}`}>{t(`project.dbBackup.${action}`)}</span>,
      })),
    },
  ];
}

/** A click on a backup entry: opens the (database) backup page for the project (true when the key was one). */
export function openBackupItem(key: string, projectId: string): boolean {
  const page = key.startsWith(PREFIX) ? 'backup' : key.startsWith(DB_PREFIX) ? 'dbBackup' : null;
  if (!page) return false;
  const action = key.slice(key.indexOf(':') + 1);
  navigateTo(pathTo(page, { projectId, action }));
  return true;
}
