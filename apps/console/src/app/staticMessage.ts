import { message } from 'antd';

/**
 * antd's static message, for toasts on routes without AntdProvider (services/feedback.ts loads this
 * when it needs it). A module of its own, apart from the provider, which binds its toasts into
 * services/feedback.ts: so the two never import each other.
 */
export const staticMessage = message;
