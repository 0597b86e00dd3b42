import { type DbBackupView, isMessageKey, type Language, toWholeMb, translateWithParams } from '@gantry/shared';
import type { DbBackupRow } from './db-backup.repository.js';

/** A stored warning (message key and params) with its text in `language`. */
export function presentWarning(warning: NonNullable<DbBackupRow['warning']>, language: Language) {
  return {
    key: warning.key,
    params: warning.params,
    message: isMessageKey(warning.key) ? translateWithParams(warning.key, language, warning.params) : warning.key,
  };
}

/** A database backup record as every call answers it (§3: fileSize in whole MB; a warning when it has one). */
export function presentDbBackup(row: DbBackupRow, language: Language): DbBackupView {
  return {
    id: row.id,
    name: row.name,
    item: row.item,
    createTime: row.createTime.toISOString(),
    updateTime: row.updateTime.toISOString(),
    fileSize: toWholeMb(row.bytes),
    bytes: row.bytes,
    type: 'dump',
    status: row.status,
    sourceProjectId: row.sourceProjectId,
    ...(row.warning ? { warning: presentWarning(row.warning, language) } : {}),
  };
}
