import { TOAST_ERROR_SECONDS, TOAST_SUCCESS_SECONDS } from '@gantry/shared';
import { message as staticMessage } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { createElement, type ReactNode } from 'react';

/**
 * Toasts from outside React (the request layer). The providers bind the context-aware instance of
 * `message.useMessage()`; until then the static function is used. Titled toasts (403) are messages
 * too: antd's notification would add its code to the login route's JavaScript for one rare case.
 */
let bound: MessageInstance | null = null;

export function bindFeedback(instance: MessageInstance | null): void {
  bound = instance;
}

function messages(): MessageInstance {
  return bound ?? staticMessage;
}

export const toast = {
  success(content: ReactNode): void {
    void messages().open({ type: 'success', content, duration: TOAST_SUCCESS_SECONDS });
  },
  error(content: ReactNode): void {
    void messages().open({ type: 'error', content, duration: TOAST_ERROR_SECONDS });
  },
  warning(content: ReactNode): void {
    void messages().open({ type: 'warning', content, duration: TOAST_ERROR_SECONDS });
  },
  /** An error with a title line (403 access denied). */
  errorWithTitle(title: string, description: string): void {
    const content = createElement(
      'span',
      { style: { display: 'inline-block', textAlign: 'left', verticalAlign: 'top' } },
      createElement('strong', { style: { display: 'block' } }, title),
      createElement('span', null, description),
    );
    void messages().open({ type: 'error', content, duration: TOAST_ERROR_SECONDS });
  },
};
