import type { BackupWarningView } from '@gantry/shared';
import i18n, { type TextKey } from '../../../i18n';

/**
 * A backup's warning (a dump whose FTP copy failed) in the console's language: its message key with
 * its params, a param that is itself a message key (`reason: 'ftp.error.refused'`) translated first;
 * the server's text when this console does not know the key.
 */
export function warningText(warning: BackupWarningView): string {
  if (!i18n.exists(warning.key)) return warning.message;
  const params = Object.fromEntries(
    Object.entries(warning.params).map(([name, value]) => [
      name,
      typeof value === 'string' && i18n.exists(value) ? i18n.t(value as TextKey, warning.params) : value,
    ]),
  );
  return i18n.t(warning.key as TextKey, params);
}
