import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ConfigProvider, message } from 'antd';
import enUS from 'antd/es/locale/en_US';
import zhCN from 'antd/es/locale/zh_CN';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bindFeedback } from '../services/feedback';
import { createQueryClient } from './queryClient';

/**
 * Context-aware toasts (theme, locale) for the request layer. antd's `App` would do the same but
 * also pulls Modal and notification into the login route's JavaScript; pages that need those use
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

/** antd (locale, toasts) and react-query; the antd locale follows i18next. */
export function AppProviders({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const { i18n } = useTranslation();
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <ConfigProvider locale={i18n.language === 'en' ? enUS : zhCN}>
      <FeedbackHost>
        <QueryClientProvider client={client}>{children}</QueryClientProvider>
      </FeedbackHost>
    </ConfigProvider>
  );
}
