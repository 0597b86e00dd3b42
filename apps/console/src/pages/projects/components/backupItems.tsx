import { Tooltip } from 'antd';
import type { ItemType } from 'antd/es/menu/interface';
import type { TFunction } from 'i18next';

/**
 * Project backup and database backup management come in a later issue: shown, disabled, with a
 * tooltip saying so, rather than dead links.
 */
export function backupItems(t: TFunction, testIdPrefix: string): ItemType[] {
  return (['backup', 'dbBackup'] as const).map((key) => ({
    key,
    disabled: true,
    label: (
      <Tooltip title={t('project.comingLater')} placement="left">
        <span data-testid={`${testIdPrefix}-${key}`}>
          {t(key === 'backup' ? 'project.backup' : 'project.dbBackup')}
        </span>
      </Tooltip>
    ),
  }));
}
