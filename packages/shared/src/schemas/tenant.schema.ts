import { z } from 'zod';
import { grantSchema, grantView } from '../licence.js';
import { ADMIN_USER_ID, INDUSTRIES } from '../validations.js';
import { wirePassword } from './auth.schema.js';

/** Tenant types: 0 personal, 1 enterprise. */
export const TENANT_TYPES = [0, 1] as const;
export const TENANT_NAME_MAX = 64;
export const REMARKS_MAX = 500;
export const USER_ID_PATTERN = /^[a-z][a-z0-9_-]{2,31}$/;
export const TABLE_DENSITIES = ['loose', 'middle', 'compact'] as const;
export const PAGE_SIZE_MAX = 1000;

export const industrySchema = z.enum(INDUSTRIES);
const imageUrl = z.string().max(1024);

/** Which kinds of project a tenant may create; the server enforces them. */
export const projectPermissions = z.object({
  ownTemplates: z.boolean().default(true),
  marketTemplates: z.boolean().default(true),
  blankProjects: z.boolean().default(true),
});
export type ProjectPermissions = z.infer<typeof projectPermissions>;

/** One table's preferences (console.md §3 list preferences). */
export const tableSetting = z.object({
  columns: z.array(z.string().max(64)).min(1, { error: 'table.columnsRequired' }).max(100),
  order: z.array(z.string().max(64)).max(100).optional(),
  density: z.enum(TABLE_DENSITIES).default('middle'),
  pageSize: z
    .number({ error: 'table.pageSize' })
    .int({ error: 'table.pageSize' })
    .min(1, { error: 'table.pageSize' })
    .max(PAGE_SIZE_MAX, { error: 'table.pageSize' }),
  /** Card or list view, for tables that offer both. */
  view: z.enum(['card', 'list']).optional(),
});
export type TableSetting = z.infer<typeof tableSetting>;
/** By table name; PATCH merges by name, `null` removes a table's preferences. */
export const tableSettingsPatch = z.record(z.string().min(1).max(64), tableSetting.nullable());
export const tableSettingsSchema = z.record(z.string(), tableSetting);

const tenantFields = {
  name: z.string().trim().min(1, { error: 'tenant.nameRequired' }).max(TENANT_NAME_MAX),
  type: z.union([z.literal(0), z.literal(1)]),
  industry: industrySchema,
  grant: grantSchema,
  remarks: z.string().max(REMARKS_MAX).optional(),
  logo: imageUrl.optional(),
  permissions: projectPermissions.default({ ownTemplates: true, marketTemplates: true, blankProjects: true }),
};

/** POST user. The id is the tenant's sign-in name; generated when empty. */
export const tenantCreateBody = z
  .object({
    id: z
      .string()
      .trim()
      .regex(USER_ID_PATTERN, { error: 'tenant.idRule' })
      // 'count' is a call of its own (GET user/count), so GET user/count could never read it.
      .refine((id) => id !== ADMIN_USER_ID && id !== 'count', { error: 'tenant.idTaken' })
      .optional()
      .or(z.literal('').transform(() => undefined)),
    ...tenantFields,
    password: wirePassword,
    password1: wirePassword,
  })
  .refine((b) => b.password === b.password1, { error: 'password.mismatch', path: ['password1'] });
export type TenantCreateBody = z.infer<typeof tenantCreateBody>;

/** PATCH user/{id}: any tenant field (never passwords, id or status), and/or table preferences. */
export const tenantPatchBody = z
  .object({
    name: tenantFields.name,
    type: tenantFields.type,
    industry: tenantFields.industry,
    grant: tenantFields.grant,
    remarks: tenantFields.remarks,
    logo: tenantFields.logo,
    permissions: projectPermissions,
    tableSettings: tableSettingsPatch,
  })
  .partial()
  .strict();
export type TenantPatchBody = z.infer<typeof tenantPatchBody>;

export const statusBody = z.object({ status: z.boolean() });
/** PATCH user/{id}/enable: the projects to enable with the tenant. */
export const enableBody = z.array(z.string().max(64)).max(10_000);
/** POST user/changepwd: the administrator's own password, to verify. */
export const verifyPasswordBody = z.object({ password: wirePassword });
/**
 * PUT user/{id}/password: the tenant's new password. The administrator's password verified in the
 * first step comes again, so the server never sets a password on an unverified session.
 */
export const tenantPasswordBody = z
  .object({ adminPassword: wirePassword, password: wirePassword, password1: wirePassword })
  .refine((b) => b.password === b.password1, { error: 'password.mismatch', path: ['password1'] });

export const tenantView = z.object({
  id: z.string(),
  user: z.string(),
  name: z.string(),
  type: z.number(),
  industry: z.string().nullable(),
  grant: grantView.nullable(),
  status: z.boolean(),
  createTime: z.string(),
  remarks: z.string().nullable(),
  logo: z.string().nullable(),
  permissions: projectPermissions,
  isAdmin: z.boolean(),
  tableSettings: tableSettingsSchema.optional(),
});
export type TenantView = z.infer<typeof tenantView>;
