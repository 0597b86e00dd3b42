import type { dbBackupPageZh } from './dbBackup.zh_Hans';

/** The English texts of `dbBackup.zh_Hans.ts` (same keys). */
export const dbBackupPageEn: Record<keyof typeof dbBackupPageZh, string> = {
  'dbBackups.titleBackup': 'Database backup',
  'dbBackups.titleRestore': 'Database restore',
  'dbBackups.tab.backup': 'Backup list',
  'dbBackups.tab.ftp': 'FTP list',
  'dbBackups.uploadTime': 'Upload time',
  'dbBackups.restoring': 'Restoring the database: the project is unavailable until the restore ends',
  'dbBackups.complete': 'backup complete',
  'dbBackups.restored': 'Restore successful',
  'dbBackups.failed': 'Failed',
  'dbBackups.codeTitle': 'Verification code',
  'dbBackups.codePrompt':
    'If the backup file was downloaded with a verification code, enter it; otherwise leave it blank',
  'dbBackups.ftpEmpty': 'The FTP server holds no backup of this project',
  'dbBackups.warning': 'Warning',
  'dbBackups.empty': 'No backups yet',
} as const;
