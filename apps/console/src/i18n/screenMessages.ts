import { BACKUP_MESSAGES, type Language, MEDIA_MESSAGES, messagesFor } from '@gantry/shared';
import type { i18n as I18n } from 'i18next';

/** Shared messages a few screens need, added by those screens (not loaded with every route). */
function addMessages(i18n: I18n, table: Record<string, Record<Language, string>>): void {
  i18n.addResourceBundle('zh_Hans', 'translation', messagesFor('zh_Hans', table), true, false);
  i18n.addResourceBundle('en', 'translation', messagesFor('en', table), true, false);
}

/** The backup screens' messages (project and database backups, FTP, periodic backups). */
export function addBackupMessages(i18n: I18n): void {
  addMessages(i18n, BACKUP_MESSAGES);
}

/** The media library's messages (path rules, file problems). */
export function addMediaMessages(i18n: I18n): void {
  addMessages(i18n, MEDIA_MESSAGES);
}
