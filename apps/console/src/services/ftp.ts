import type { FtpSettings, FtpSettingsInput, FtpTestResult } from '@gantry/shared';
import { request } from './request';

/** FTP storage of database backups (issue 13 §2): the administrator's settings. */
const PATH = 'rest/db-backup/ftp-settings';

export const FTP_SETTINGS_KEY = ['ftp-settings'] as const;

export function fetchFtpSettings(): Promise<FtpSettings> {
  return request(PATH);
}

/** Without `password` the stored one is kept. Validation failures come back as `fields` (no toast). */
export function saveFtpSettings(settings: FtpSettingsInput): Promise<FtpSettings> {
  return request(PATH, { method: 'PUT', body: settings, noMessage: true });
}

/** Tries the settings (the stored password when none is given): which step failed, if any. */
export function testFtpSettings(settings: FtpSettingsInput): Promise<FtpTestResult> {
  return request(`${PATH}/test`, { method: 'POST', body: settings, noMessage: true });
}
