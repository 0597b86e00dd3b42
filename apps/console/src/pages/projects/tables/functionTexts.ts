import { messagesFor, TABLE_FUNCTION_MESSAGES } from '@gantry/shared';
import i18n from '../../../i18n';
import { tableFunctionsEn } from '../../../i18n/tableFunctions.en';
import { tableFunctionsZh } from '../../../i18n/tableFunctions.zh_Hans';
import './texts';

// The shift and mapping dialogs' texts and messages come with the dialogs, not with the designer
// (the project detail loads the designer's texts too: weight/budgets.ts).
i18n.addResourceBundle('zh_Hans', 'translation', messagesFor('zh_Hans', TABLE_FUNCTION_MESSAGES), true, false);
i18n.addResourceBundle('en', 'translation', messagesFor('en', TABLE_FUNCTION_MESSAGES), true, false);
i18n.addResourceBundle('zh_Hans', 'translation', tableFunctionsZh, true, false);
i18n.addResourceBundle('en', 'translation', tableFunctionsEn, true, false);
