import i18n from '../../i18n';
import type { ConsoleKey } from '../../i18n/zh_Hans';

/** The actions and object types the server records (shared: the server's audit events are typed with them). */
export { AUDIT_ACTIONS, AUDIT_OBJECT_TYPES } from '@gantry/shared';

function labelOr(key: string, fallback: string): string {
  return i18n.exists(key) ? String(i18n.t(key as ConsoleKey)) : fallback;
}

export function actionText(action: string): string {
  return labelOr(`audit.action.${action}`, action);
}

export function objectTypeText(objectType: string): string {
  return labelOr(`audit.object.${objectType}`, objectType);
}
