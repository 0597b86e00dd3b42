import { FIELD_MESSAGES, messagesFor } from '@gantry/shared';
import type { TFunction } from 'i18next';
import i18n, { type TextKey } from '../../../i18n';
import { tablesPageEn } from '../../../i18n/tables.en';
import { tablesPageZh } from '../../../i18n/tables.zh_Hans';

// The table designer's messages (shared with the server: field and record problems, the screen's
// texts) come with the page, not with every route (weight/budgets.ts).
i18n.addResourceBundle('zh_Hans', 'translation', messagesFor('zh_Hans', FIELD_MESSAGES), true, false);
i18n.addResourceBundle('en', 'translation', messagesFor('en', FIELD_MESSAGES), true, false);
i18n.addResourceBundle('zh_Hans', 'translation', tablesPageZh, true, false);
i18n.addResourceBundle('en', 'translation', tablesPageEn, true, false);

/** A text whose key is made at run time (a type's, an option's or a value's); the key itself when missing. */
export function dynamicText(t: TFunction, key: string, fallback?: string): string {
  return t(key as TextKey, { defaultValue: fallback ?? key }) as string;
}
