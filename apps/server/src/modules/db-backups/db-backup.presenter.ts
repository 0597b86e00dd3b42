import { type DbBackupView, toWholeMb } from '@gantry/shared';
import type { DbBackupRow } from './db-backup.repository.js';

/** A database backup record as every call answers it (§3: fileSize in whole MB). */
export function presentDbBackup(row: DbBackupRow): DbBackupView {
  return {
    id: row.id,
    name: row.name,
    item: row.item,
    createTime: row.createTime.toISOString(),
    updateTime: row.updateTime.toISOString(),
    fileSize: toWholeMb(row.bytes),
    bytes: row.bytes,
    type: 'dump',
    status: 'success',
    sourceProjectId: row.sourceProjectId,
  };
}
