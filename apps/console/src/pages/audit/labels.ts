import i18n from '../../i18n';
import type { ConsoleKey } from '../../i18n/zh_Hans';

/** Object types the server records (tenant, project, licence, settings, platform, account). */
export const AUDIT_OBJECT_TYPES = ['tenant', 'project', 'licence', 'settings', 'platform', 'account'] as const;
/** Actions with a label; others show their code. */
export const AUDIT_ACTIONS = [
  'tenant.create',
  'tenant.update',
  'tenant.disable',
  'tenant.enable',
  'tenant.delete',
  'tenant.password',
  'project.create',
  'project.update',
  'project.enable',
  'project.disable',
  'project.delete',
  'project.certificate',
  'project.runtimeKey',
  'licence.apply',
  'platform.backup',
  'platform.backup.delete',
  'platform.restore',
  'account.totp.on',
  'account.totp.off',
  'account.totp.recoveryCodeUsed',
  'account.totp.refused',
  'account.apiToken.create',
  'account.apiToken.revoke',
] as const;

function labelOr(key: string, fallback: string): string {
  return i18n.exists(key) ? String(i18n.t(key as ConsoleKey)) : fallback;
}

export function actionText(action: string): string {
  return labelOr(`audit.action.${action}`, action);
}

export function objectTypeText(objectType: string): string {
  return labelOr(`audit.object.${objectType}`, objectType);
}
