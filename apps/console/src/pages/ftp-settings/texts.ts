import i18n from '../../i18n';
import { ftpPageEn } from '../../i18n/ftp.en';
import { ftpPageZh } from '../../i18n/ftp.zh_Hans';
import { addBackupMessages } from '../../i18n/screenMessages';

// The FTP storage page's texts come with the page, not with every route (weight/budgets.ts).
i18n.addResourceBundle('zh_Hans', 'translation', ftpPageZh, true, false);
i18n.addResourceBundle('en', 'translation', ftpPageEn, true, false);
addBackupMessages(i18n);
