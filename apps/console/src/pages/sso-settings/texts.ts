import i18n from '../../i18n';
import { ssoPageEn } from '../../i18n/sso.en';
import { ssoPageZh } from '../../i18n/sso.zh_Hans';

// The page's texts come with the page, not with every route (weight/budgets.ts).
i18n.addResourceBundle('zh_Hans', 'translation', ssoPageZh, true, false);
i18n.addResourceBundle('en', 'translation', ssoPageEn, true, false);
