import { z } from 'zod';

/**
 * Every action the audit log records. The server's `AuditEvent.action` is one of these, and the
 * console names each in both languages (a test holds the two lists equal).
 */
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
  'ssoSettings.update',
  'sso.login',
  'sso.refused',
  'sso.tenantCreate',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an audit entry is about. */
export const AUDIT_OBJECT_TYPES = ['tenant', 'project', 'licence', 'settings', 'platform'] as const;
export type AuditObjectType = (typeof AUDIT_OBJECT_TYPES)[number];

export const AUDIT_EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type AuditExportFormat = (typeof AUDIT_EXPORT_FORMATS)[number];
/** At most this many entries in one export (narrow the filter for more). */
export const AUDIT_EXPORT_MAX = 100_000;

/** GET audit/export: the format and the list filter (`query`, the list language's filter or list query). */
export const auditExportQuery = z.object({
  format: z.enum(AUDIT_EXPORT_FORMATS).default('csv'),
  query: z.string().max(20_000).optional(),
});
