import i18n from '../../i18n';
import { dbBackupPageEn } from '../../i18n/dbBackup.en';
import { dbBackupPageZh } from '../../i18n/dbBackup.zh_Hans';
import { periodicBackupEn } from '../../i18n/periodicBackup.en';
import { periodicBackupZh } from '../../i18n/periodicBackup.zh_Hans';

// The database backup screens' texts come with the page, not with every route (weight/budgets.ts).
i18n.addResourceBundle('zh_Hans', 'translation', dbBackupPageZh, true, false);
i18n.addResourceBundle('en', 'translation', dbBackupPageEn, true, false);
i18n.addResourceBundle('zh_Hans', 'translation', periodicBackupZh, true, false);
i18n.addResourceBundle('en', 'translation', periodicBackupEn, true, false);
