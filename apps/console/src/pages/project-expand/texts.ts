import { FIELD_MESSAGES, messagesFor, PROJECT_EXPAND_MESSAGES, type ProjectExpandMessageKey } from '@gantry/shared';
import { useTranslation } from 'react-i18next';
import i18n, { type TextKey } from '../../i18n';

// The project extension texts (shared with the server: its refusals) come with the screens that show them.
i18n.addResourceBundle('zh_Hans', 'translation', messagesFor('zh_Hans', PROJECT_EXPAND_MESSAGES), true, false);
i18n.addResourceBundle('en', 'translation', messagesFor('en', PROJECT_EXPAND_MESSAGES), true, false);
// The field rules' messages (identifier, options) the schema check answers with, shared with the designer.
i18n.addResourceBundle('zh_Hans', 'translation', messagesFor('zh_Hans', FIELD_MESSAGES), true, false);
i18n.addResourceBundle('en', 'translation', messagesFor('en', FIELD_MESSAGES), true, false);

/** `t` over the project extension keys (with the values of their `{{…}}`). */
export function useExpandText(): (key: ProjectExpandMessageKey, values?: Record<string, string>) => string {
  const { t } = useTranslation();
  return (key, values) => t(key as string as TextKey, { ...values, defaultValue: key }) as string;
}
