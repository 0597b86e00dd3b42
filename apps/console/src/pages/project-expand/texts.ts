import { messagesFor, PROJECT_EXPAND_MESSAGES, type ProjectExpandMessageKey } from '@gantry/shared';
import { useTranslation } from 'react-i18next';
import i18n, { type TextKey } from '../../i18n';

// The project extension texts (shared with the server: its refusals) come with the screens that show them.
i18n.addResourceBundle('zh_Hans', 'translation', messagesFor('zh_Hans', PROJECT_EXPAND_MESSAGES), true, false);
i18n.addResourceBundle('en', 'translation', messagesFor('en', PROJECT_EXPAND_MESSAGES), true, false);

/** `t` over the project extension keys. */
export function useExpandText(): (key: ProjectExpandMessageKey) => string {
  const { t } = useTranslation();
  return (key) => t(key as string as TextKey) as string;
}
