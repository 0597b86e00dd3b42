import type { platformBackupZh } from './platformBackup.zh_Hans';

/** The English texts of `platformBackup.zh_Hans.ts` (same keys). */
export const platformBackupEn: Record<keyof typeof platformBackupZh, string> = {
  'platform.title': 'Platform backup and restore',
  'platform.intro':
    'A platform backup holds the whole platform: settings, the administrator and tenants, projects, the licence, the audit log, and every project’s data and files. Use it to rebuild the platform on another machine, or to move from the embedded database to PostgreSQL.',
  'platform.backupNow': 'Back up now',
  'platform.upload': 'Upload a backup',
  'platform.uploading': 'Uploading and verifying {{percent}}%',
  'platform.uploaded': 'The backup was uploaded and verified',
  'platform.running': 'Backing up the platform…',
  'platform.done': 'Platform backup complete',
  'platform.name': 'File',
  'platform.size': 'Size',
  'platform.time': 'Time',
  'platform.actions': 'Actions',
  'platform.download': 'Download',
  'platform.restore': 'Restore',
  'platform.delete': 'Delete',
  'platform.deleteConfirm': 'Delete the backup file “{{name}}”?',
  'platform.deleted': 'Deleted',
  'platform.empty': 'No platform backups yet',
  'platform.restoreTitle': 'Restore the whole platform from “{{name}}”',
  'platform.restoreWarning':
    'A restore replaces every setting, account, project, the licence, the audit log and every file with the backup. The platform pauses while it runs; afterwards everyone, you included, signs in again.',
  'platform.passwordLabel': 'Enter your administrator password to confirm',
  'platform.passwordRequired': 'Enter the password',
  'platform.restoringNow': 'Restoring the platform; keep this page open…',
  'platform.restored': 'The platform was restored. Sign in again.',
  'platform.restoreFailed': 'The restore failed and nothing changed: {{reason}}',
};
