import i18n from '../../i18n';
import { backupPageEn } from '../../i18n/backup.en';
import { backupPageZh } from '../../i18n/backup.zh_Hans';
import { addBackupMessages } from '../../i18n/screenMessages';

// The backup screens' texts come with the page, not with every route (weight/budgets.ts): both
// languages, so a switch of language on the page needs nothing more.
i18n.addResourceBundle('zh_Hans', 'translation', backupPageZh, true, false);
i18n.addResourceBundle('en', 'translation', backupPageEn, true, false);
addBackupMessages(i18n);
