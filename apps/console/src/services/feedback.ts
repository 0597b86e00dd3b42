import { TOAST_ERROR_SECONDS, TOAST_SUCCESS_SECONDS } from '@gantry/shared';
import { message as staticMessage, notification as staticNotification } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { NotificationInstance } from 'antd/es/notification/interface';
import type { ReactNode } from 'react';

/**
 * Toasts from outside React (the request layer). The providers bind the context-aware instances
 * of `message.useMessage()` and `notification.useNotification()`; until then the static functions are used.
 */
interface Instances {
  message: MessageInstance;
  notification: NotificationInstance;
}

let bound: Instances | null = null;

export function bindFeedback(instances: Instances | null): void {
  bound = instances;
}

function instances(): Instances {
  return bound ?? { message: staticMessage, notification: staticNotification };
}

export const toast = {
  success(content: ReactNode): void {
    void instances().message.open({ type: 'success', content, duration: TOAST_SUCCESS_SECONDS });
  },
  error(content: ReactNode): void {
    void instances().message.open({ type: 'error', content, duration: TOAST_ERROR_SECONDS });
  },
  warning(content: ReactNode): void {
    void instances().message.open({ type: 'warning', content, duration: TOAST_ERROR_SECONDS });
  },
  /** A titled error notification (403 access denied). */
  notifyError(title: ReactNode, description: ReactNode): void {
    instances().notification.error({ title, description, duration: TOAST_ERROR_SECONDS });
  },
};
