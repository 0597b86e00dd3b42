import { Tooltip } from 'antd';
import type { ItemType } from 'antd/es/menu/interface';
import type { TFunction } from 'i18next';
import { navigateTo } from '../../../services/navigation';

const ACTIONS = ['create', 'upload', 'restore'] as const;
const PREFIX = 'backup:';

/**
 * The project menus' backup entries (backups-data-designer.md §2): project backup management with
 * back up, upload and restore, each opening /app/backup for the project. Database backup management
 * comes in a later issue: shown, disabled, with a tooltip saying so, rather than a dead link.
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
      disabled: true,
      label: (
        <Tooltip title={t('project.comingLater')} placement="left">
          <span data-testid={`${testIdPrefix}-dbBackup`}>{t('project.dbBackup')}</span>
        </Tooltip>
      ),
    },
  ];
}

/** A click on a backup entry: opens the backup page for the project (true when the key was one). */
export function openBackupItem(key: string, projectId: string): boolean {
  if (!key.startsWith(PREFIX)) return false;
  const action = key.slice(PREFIX.length);
  const query = new URLSearchParams({ projectId, action });
  navigateTo(`/app/backup?${query.toString()}`);
  return true;
}
