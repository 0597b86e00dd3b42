/**
 * What the audit log records: the object types and every action id, in one list the server's
 * `AuditEvent` is typed with and the console labels in both languages (its test checks each).
 */
export const AUDIT_OBJECT_TYPES = ['tenant', 'project', 'licence', 'settings', 'platform', 'account'] as const;
export type AuditObjectType = (typeof AUDIT_OBJECT_TYPES)[number];

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
  'ftpSettings.update',
  'dbBackupCycle.create',
  'dbBackupCycle.update',
  'dbBackupCycle.delete',
  'account.totp.on',
  'account.totp.off',
  'account.totp.recoveryCodeUsed',
  'account.totp.refused',
  'account.apiToken.create',
  'account.apiToken.revoke',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
