import { BACKUP_RECORD_STATUS_WIRE, type BackupView, rulesOnWire, toWholeMb } from '@gantry/shared';
import type { BackupRow } from './backup.repository.js';

/** A backup or restore record as every call answers it. */
export function presentBackup(row: BackupRow): BackupView {
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    type: row.type,
    status: BACKUP_RECORD_STATUS_WIRE[row.status],
    item: row.item,
    moduleRules: rulesOnWire(row.moduleRules),
    excludedDirs: row.excludedDirs,
    documents: row.documents,
    size: toWholeMb(row.bytes),
    bytes: row.bytes,
    file: row.file,
    restoreFile: row.restoreFile,
    sourceProjectId: row.sourceProjectId,
    safety: row.safety,
    createTime: row.createTime.toISOString(),
    updateTime: row.updateTime.toISOString(),
  };
}
