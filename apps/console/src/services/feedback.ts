import { TOAST_ERROR_SECONDS, TOAST_SUCCESS_SECONDS } from '@gantry/shared';
import type { ArgsProps, MessageInstance } from 'antd/es/message/interface';
import { createElement, type ReactNode } from 'react';

/**
 * Toasts from outside React (the request layer). AntdProvider binds the context-aware instance of
 * `message.useMessage()`; on routes without it (the login page, which loads no antd) antd's static
 * message is loaded on the first toast. Titled toasts (403) are messages too: antd's notification
 * would add its code for one rare case.
 */
let bound: MessageInstance | null = null;

export function bindFeedback(instance: MessageInstance | null): void {
  bound = instance;
}

function open(args: ArgsProps): void {
  if (bound) {
    void bound.open(args);
    return;
  }
  void import('antd/es/message').then(({ default: staticMessage }) => void (bound ?? staticMessage).open(args));
}

const messages = () => ({ open });

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
