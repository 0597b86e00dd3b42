import { FIELD_MESSAGES, messagesFor } from '@gantry/shared';
import i18n from '../../../i18n';

// The table designer's messages (shared with the server: field and record problems, the screen's
// texts) come with the page, not with every route (weight/budgets.ts).
i18n.addResourceBundle('zh_Hans', 'translation', messagesFor('zh_Hans', FIELD_MESSAGES), true, false);
i18n.addResourceBundle('en', 'translation', messagesFor('en', FIELD_MESSAGES), true, false);
