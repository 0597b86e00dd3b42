import i18n from '../../i18n';
import { platformBackupEn } from '../../i18n/platformBackup.en';
import { platformBackupZh } from '../../i18n/platformBackup.zh_Hans';

// The platform backup page's texts come with the page, not with every route (weight/budgets.ts).
i18n.addResourceBundle('zh_Hans', 'translation', platformBackupZh, true, false);
i18n.addResourceBundle('en', 'translation', platformBackupEn, true, false);
