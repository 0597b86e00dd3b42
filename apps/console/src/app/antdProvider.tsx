import { ConfigProvider, message, type ThemeConfig } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { bindFeedback } from '../services/feedback';

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
 * WCAG AA contrast (issue 32, axe in e2e/a11y.spec.ts): antd's primary blue #1677ff carries white
 * text at 4.1:1 and its grey secondary texts sit near 3:1, under the 4.5:1 of normal text. One shade
 * darker of the same blue (antd's blue-7), and greys at 60 % black, pass.
 */
const THEME: ThemeConfig = {
  token: {
    colorPrimary: '#0958d9',
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    colorTextDescription: 'rgba(0, 0, 0, 0.6)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
  },
};

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
