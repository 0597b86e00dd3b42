import { BACKUP_KINDS, type BackupKind, type BackupView } from '@gantry/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CreateDialog } from '../../components/backups/CreateDialog';
import { DownloadDialog } from '../../components/backups/DownloadDialog';
import { newRequestId } from '../../components/backups/newRequestId';
import { RestoreDialog, type RestoreValues } from '../../components/backups/RestoreDialog';
import { UploadDialog } from '../../components/backups/UploadDialog';
import {
  backupSizes,
  downloadBackup,
  type ImportInput,
  restorePlan,
  startBackup,
  startRestore,
  uploadBackup,
} from '../../services/backup';
import { watchBackupTask } from '../../services/backupTasks';
import { toast } from '../../services/feedback';

/** The project backups' calls behind the shared dialogs (components/backups), loaded when one opens. */
const flags = (kinds: readonly string[]) => Object.fromEntries(kinds.map((kind) => [kind, true]));

export function CreateBackup({
  projectId,
  projectName,
  onClose,
}: {
  projectId: string;
  projectName: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <CreateDialog
      prefix="backup"
      title={t('backups.create')}
      projectId={projectId}
      projectName={projectName}
      kinds={BACKUP_KINDS}
      modulesKind="mongodb"
      sizes={async (excludedDirs) =>
        Object.fromEntries((await backupSizes(projectId, excludedDirs)).map((entry) => [entry.name, entry.size]))
      }
      start={async (values) => {
        const task = await startBackup(projectId, {
          name: values.name,
          item: flags(values.item),
          moduleRules: Object.fromEntries(values.mongoItem.map((module) => [module, 0 as const])),
          excludedDirs: values.excludedDirs,
          requestId: newRequestId(),
        });
        watchBackupTask(task.id);
        toast.success(t('backups.started'));
      }}
      onClose={onClose}
    />
  );
}

export function RestoreBackup({
  projectId,
  record,
  onClose,
}: {
  projectId: string;
  record: BackupView;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const requestId = useMemo(newRequestId, []);
  const input = ({ item, mongoItem, itemType }: RestoreValues<BackupKind>): ImportInput => ({
    id: record.id,
    name: record.name,
    item: flags(item),
    moduleRules: itemType === undefined ? {} : Object.fromEntries(mongoItem.map((module) => [module, itemType])),
    requestId,
  });
  return (
    <RestoreDialog
      prefix="backup"
      name={record.name}
      kinds={BACKUP_KINDS.filter((kind) => record.item[kind])}
      modulesKind="mongodb"
      modules={Object.keys(record.moduleRules)}
      plan={(values) => restorePlan(projectId, input(values))}
      start={async (values) => {
        const task = await startRestore(projectId, input(values));
        watchBackupTask(task.id);
        toast.success(t('backups.started'));
      }}
      onClose={onClose}
    />
  );
}

export function DownloadBackup({
  projectId,
  record,
  onClose,
}: {
  projectId: string;
  record: BackupView;
  onClose: () => void;
}) {
  return (
    <DownloadDialog
      prefix="backup"
      name={record.name}
      fetchFile={(code, options) => downloadBackup(projectId, record.id, code, options)}
      onClose={onClose}
    />
  );
}

export function UploadBackup({
  projectId,
  onClose,
  onUploaded,
}: {
  projectId: string;
  onClose: () => void;
  onUploaded: () => void;
}) {
  return (
    <UploadDialog
      prefix="backup"
      upload={(file, code, options) => uploadBackup(projectId, file, code, options)}
      onUploaded={onUploaded}
      onClose={onClose}
    />
  );
}
