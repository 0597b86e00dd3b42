import { z } from 'zod';

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
  'project.tableShift',
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
  'ssoSettings.update',
  'sso.login',
  'sso.refused',
  'sso.tenantCreate',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];
/** At most this many entries in one export (narrow the filter for more). */
export const AUDIT_EXPORT_MAX = 100_000;

/** GET audit/export: the format and the list filter (`query`, the list language's filter or list query). */
export const auditExportQuery = z.object({
  format: z.enum(AUDIT_EXPORT_FORMATS).default('csv'),
  query: z.string().max(20_000).optional(),
});
