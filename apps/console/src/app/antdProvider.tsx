import { ConfigProvider, message } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { bindFeedback } from '../services/feedback';
import { THEME } from './theme';

/**
 * Context-aware toasts (theme, locale) for the request layer. antd's `App` would do the same but
 * also pulls Modal and notification into every page's JavaScript; pages that need those use
 * `Modal.useModal()` / `notification.useNotification()` in their own chunk.
 */
function FeedbackHost({ children }: { children: ReactNode }) {
  const [messageApi, messageHolder] = message.useMessage();
  useEffect(() => {
    bindFeedback(messageApi);
    return () => bindFeedback(null);
  }, [messageApi]);
  return (
    <>
      {messageHolder}
      {children}
    </>
  );
}

/**
 * antd's locale (following i18next) and toasts, around the routes that use antd: the /app layout,
 * /regest and the not-found page (app/router.tsx). The login route does without antd (its weight
 * budget, weight/budgets.ts), so this is not part of the entry.
 */
export function AntdProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return (
    <ConfigProvider locale={i18n.language === 'en' ? enUS : zhCN} theme={THEME}>
      <FeedbackHost>{children}</FeedbackHost>
    </ConfigProvider>
  );
}
