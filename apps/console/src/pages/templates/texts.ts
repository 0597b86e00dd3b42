import i18n from '../../i18n';
import { templatesPageEn } from '../../i18n/templates.en';
import { templatesPageZh } from '../../i18n/templates.zh_Hans';

// The template screens' texts come with them, not with every route (weight/budgets.ts).
i18n.addResourceBundle('zh_Hans', 'translation', templatesPageZh, true, false);
i18n.addResourceBundle('en', 'translation', templatesPageEn, true, false);
