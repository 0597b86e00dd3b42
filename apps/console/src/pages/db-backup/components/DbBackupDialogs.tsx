import { DB_BACKUP_KINDS } from '@gantry/shared';
import { useTranslation } from 'react-i18next';
import { CreateDialog } from '../../../components/backups/CreateDialog';
import { DownloadDialog } from '../../../components/backups/DownloadDialog';
import { RestoreDialog } from '../../../components/backups/RestoreDialog';
import { UploadDialog } from '../../../components/backups/UploadDialog';
import {
  type DbBackupSource,
  dbBackupStats,
  downloadDbBackup,
  startDbRestore,
  startDump,
  uploadDbBackup,
} from '../../../services/dbBackup';
import { toast } from '../../../services/feedback';
import type { DbBackupRow } from './DbBackupList';

/**
 * The database backups' calls behind the shared dialogs (components/backups), loaded when one opens.
 * A database restore takes every collection whole (rule 2, 'clear, then add'), which its dialog says.
 */
const flags = (kinds: readonly string[]) => Object.fromEntries(kinds.map((kind) => [kind, true]));
const WHOLE = 2;

export function DumpDialog({
  projectId,
  projectName,
  onClose,
  onStarted,
}: {
  projectId: string;
  projectName: string;
  onClose: () => void;
  onStarted: (jobId: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <CreateDialog
      prefix="db"
      title={t('dbBackups.titleBackup')}
      projectId={projectId}
      projectName={projectName}
      kinds={DB_BACKUP_KINDS}
      initialKinds={DB_BACKUP_KINDS}
      sizes={async (excludedDirs) =>
        Object.fromEntries((await dbBackupStats(projectId, excludedDirs)).map((row) => [row.name, row.size]))
      }
      start={async (values) => {
        const { id } = await startDump(projectId, {
          name: values.name,
          item: flags(values.item),
          excludedDirs: values.excludedDirs,
        });
        toast.success(t('backups.started'));
        onStarted(id);
      }}
      onClose={onClose}
    />
  );
}

export function RestoreDialogOf({
  projectId,
  source,
  row,
  onClose,
  onStarted,
}: {
  projectId: string;
  source: DbBackupSource;
  row: DbBackupRow;
  onClose: () => void;
  onStarted: (jobId: string) => void;
}) {
  return (
    <RestoreDialog
      prefix="db"
      name={row.name}
      kinds={DB_BACKUP_KINDS.filter((kind) => row.item[kind])}
      fixedRule={WHOLE}
      start={async (values) => {
        const { id } = await startDbRestore(projectId, source, row.id, flags(values.item));
        onStarted(id);
      }}
      onClose={onClose}
    />
  );
}

export function DownloadDialogOf({
  projectId,
  source,
  row,
  onClose,
}: {
  projectId: string;
  source: DbBackupSource;
  row: DbBackupRow;
  onClose: () => void;
}) {
  return (
    <DownloadDialog
      prefix="db"
      name={row.name}
      fetchFile={(code, options) => downloadDbBackup(projectId, source, row.id, code, options)}
      onClose={onClose}
    />
  );
}

export function UploadDialogOf({
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
      prefix="db"
      askCodeFirst
      upload={(file, code, options) => uploadDbBackup(projectId, file, code, options)}
      onUploaded={onUploaded}
      onClose={onClose}
    />
  );
}
