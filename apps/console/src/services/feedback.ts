import { TOAST_ERROR_SECONDS, TOAST_POPUP_SECONDS, TOAST_SUCCESS_SECONDS } from '@gantry/shared';
import type { MessageInstance } from 'antd/es/message/interface';
import { createElement, type ReactNode } from 'react';
import { currentHashPath } from './navigation';

/**
 * Toasts from outside React (the request layer). The providers bind the context-aware instance of
 * `message.useMessage()`; until then the static function is used. Titled toasts (403) are messages
 * too: antd's notification would add its code to the login route's JavaScript for one rare case.
 *
 * A toast that no longer applies goes (issue 10):
 *  - warnings and errors belong to the page they were shown on: leaving it closes them (a 404 from
 *    before signing out does not follow to the login page; '请先设置admin密码，才可以登录！' closes
 *    when registration leads to /login);
 *  - successes confirm the action that led to the new page, so they stay their time, and do not
 *    close the errors of a partly failed action ("2 deleted" beside "b could not be deleted");
 *  - the same text again replaces the open toast instead of stacking a second one.
 */
type Kind = 'success' | 'error' | 'warning';
interface OpenToast {
  kind: Kind;
  /** The route (hash path without query) the toast was shown on. */
  route: string;
  /** Shown by antd's static message (successes), not by the page's provider. */
  global: boolean;
  /** How long it stays, in seconds. */
  seconds: number;
}

let bound: MessageInstance | null = null;
/** The toasts open now, by key. */
const open = new Map<string, OpenToast>();

export function bindFeedback(instance: MessageInstance | null): void {
  // a provider is there, so antd's message is loaded: have the static message ready for successes
  if (instance && !staticMessage) {
    void import('../app/staticMessage').then((antd) => {
      staticMessage = antd.staticMessage;
    });
  }
  // the toasts of the previous instance went with it (the static message's stay)
  if (instance !== bound) for (const [key, toast] of open) if (!toast.global) open.delete(key);
  bound = instance;
}

/**
 * antd's static message: loaded on the first toast shown without AntdProvider (on the login page,
 * whose route loads no antd; weight/budgets.ts), from app/staticMessage.ts: antd's message, which the
 * provider (and so the layout) loads anyway.
 */
let staticMessage: MessageInstance | null = null;

function withMessages(use: (instance: MessageInstance) => void, global = false): void {
  const instance = global ? staticMessage : (bound ?? staticMessage);
  if (instance) {
    use(instance);
    return;
  }
  void import('../app/staticMessage').then((antd) => {
    staticMessage = antd.staticMessage;
    use(global ? antd.staticMessage : (bound ?? antd.staticMessage));
  });
}

export interface ToastOptions {
  /** The route the toast is about when it is not the current one (shown just before navigating there). */
  route?: string;
  /** How long it stays, in seconds, when not the kind's usual time (0: until closed). */
  seconds?: number;
}

let sequence = 0;
/** The route the router last reported (routeChanged); the hash until it has. */
let currentRoute: string | null = null;

const routeOf = (path: string) => path.split('?')[0] ?? path;

function keyOf(content: ReactNode): string {
  sequence += 1;
  return typeof content === 'string' ? `toast:${content}` : `toast#${sequence}`;
}

function close(key: string): void {
  const global = open.get(key)?.global ?? false;
  open.delete(key);
  withMessages((messages) => messages.destroy(key), global);
}

function show(kind: Kind, content: ReactNode, duration: number, options: ToastOptions = {}): void {
  const key = keyOf(content);
  // A success usually confirms what led to a new page, whose provider may be another one (the
  // page's own unmounts with its toasts): it is shown by antd's static message, which outlives pages.
  const global = kind === 'success';
  open.set(key, {
    kind,
    route: routeOf(options.route ?? currentRoute ?? currentHashPath()),
    global,
    seconds: duration,
  });
  withMessages(
    (messages) =>
      void messages.open({
        key,
        type: kind,
        content,
        duration,
        onClose: () => {
          open.delete(key);
        },
      }),
    global,
  );
}

/** The router moved to `path`: warnings and errors of other pages close. */
export function routeChanged(path: string): void {
  const route = routeOf(path);
  currentRoute = route;
  for (const [key, toast] of open) if (toast.kind !== 'success' && toast.route !== route) close(key);
}

/**
 * Tests: closes every toast now, and answers whether antd's static message (a React root of its
 * own, outside the rendered tree) was used, whose closing still renders for a moment.
 */
export function closeAllToasts(): boolean {
  open.clear();
  bound?.destroy();
  staticMessage?.destroy();
  return staticMessage !== null;
}

/** The toasts open now (for tests). */
export function openToasts(): OpenToast[] {
  return [...open.values()];
}

/**
 * Durations (console.md §4, backups-data-designer.md §9): an error the server answered stays 13 s, a
 * success 1.5 s; the console's own pop-up messages (a hint about what was typed or chosen, a notice
 * such as '请先设置admin密码') 3 s.
 */
export const toast = {
  success(content: ReactNode, options?: ToastOptions): void {
    show('success', content, options?.seconds ?? TOAST_SUCCESS_SECONDS, options);
  },
  error(content: ReactNode, options?: ToastOptions): void {
    show('error', content, TOAST_ERROR_SECONDS, options);
  },
  /** A pop-up notice (3 s). */
  warning(content: ReactNode, options?: ToastOptions): void {
    show('warning', content, TOAST_POPUP_SECONDS, options);
  },
  /** A pop-up error hint about what the user typed or chose, found before anything is sent (3 s). */
  hint(content: ReactNode, options?: ToastOptions): void {
    show('error', content, TOAST_POPUP_SECONDS, options);
  },
  /** An error with a title line (403 access denied). */
  errorWithTitle(title: string, description: string): void {
    const content = createElement(
      'span',
      { style: { display: 'inline-block', textAlign: 'left', verticalAlign: 'top' } },
      createElement('strong', { style: { display: 'block' } }, title),
      createElement('span', null, description),
    );
    show('error', content, TOAST_ERROR_SECONDS);
  },
};
