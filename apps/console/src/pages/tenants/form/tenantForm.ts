import {
  type Industry,
  type ProjectPermissions,
  sha256Hex,
  type TenantCreateBody,
  type TenantPatchBody,
  type TenantView,
  tenantCreateBody,
  tenantPatchBody,
} from '@gantry/shared';
import { translateMessage } from '../../../i18n';

/** What the tenant form edits; passwords are typed in clear and hashed when the body is built. */
export interface TenantFormValues {
  id?: string;
  name: string;
  type: 0 | 1;
  industry?: Industry;
  logo?: string;
  remarks?: string;
  permissions: ProjectPermissions;
  grant?: Record<string, unknown>;
  password?: string;
  password1?: string;
}

export const DEFAULT_PERMISSIONS: ProjectPermissions = {
  ownTemplates: true,
  marketTemplates: true,
  blankProjects: true,
};

export function toFormValues(tenant: TenantView | undefined): Partial<TenantFormValues> {
  if (!tenant) return { type: 0, permissions: { ...DEFAULT_PERMISSIONS } };
  const { remainingTime: _left, endTime: _end, ...grant } = tenant.grant ?? { remainingTime: 0, endTime: '' };
  return {
    name: tenant.name,
    type: tenant.type === 1 ? 1 : 0,
    industry: (tenant.industry ?? undefined) as Industry | undefined,
    logo: tenant.logo ?? '',
    remarks: tenant.remarks ?? '',
    permissions: { ...DEFAULT_PERMISSIONS, ...tenant.permissions },
    ...(tenant.grant ? { grant } : {}),
  };
}

type Built<T> = { ok: true; body: T } | { ok: false; fields: Record<string, string> };

function issuesToFields(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.path.map(String).join('.');
    fields[path] ??= issue.message;
  }
  return fields;
}

function commonFields(values: TenantFormValues) {
  return {
    name: values.name,
    type: values.type,
    industry: values.industry,
    grant: values.grant,
    remarks: values.remarks ?? '',
    logo: values.logo ?? '',
    permissions: { ...DEFAULT_PERMISSIONS, ...values.permissions },
  };
}

/** POST user: checked by the shared `tenantCreateBody`, passwords hashed (spec README, contract 2). */
export function buildCreateBody(values: TenantFormValues): Built<TenantCreateBody> {
  const parsed = tenantCreateBody.safeParse({
    id: values.id?.trim() ?? '',
    ...commonFields(values),
    password: values.password ? sha256Hex(values.password) : '',
    password1: values.password1 ? sha256Hex(values.password1) : '',
  });
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, fields: issuesToFields(parsed.error.issues) };
}

/** PATCH user/{id}: the shared `tenantPatchBody` (never passwords or id). */
export function buildPatchBody(values: TenantFormValues): Built<TenantPatchBody> {
  const parsed = tenantPatchBody.safeParse(commonFields(values));
  return parsed.success ? { ok: true, body: parsed.data } : { ok: false, fields: issuesToFields(parsed.error.issues) };
}

const FORM_ROOTS = new Set([
  'id',
  'name',
  'type',
  'industry',
  'logo',
  'remarks',
  'permissions',
  'password',
  'password1',
]);

/**
 * Server or schema `fields` → errors on form items (`grant.userCount` → ['grant', 'userCount'], the
 * GrantForm's item), and the messages no item shows (e.g. a whole missing grant).
 */
export function mapTenantFields(fields: Record<string, string>): {
  fieldErrors: { name: string[]; errors: string[] }[];
  other: string[];
} {
  const fieldErrors: { name: string[]; errors: string[] }[] = [];
  const other: string[] = [];
  for (const [path, message] of Object.entries(fields)) {
    const name = path.split('.');
    const text = translateMessage(message);
    const [root] = name;
    if (root !== undefined && (FORM_ROOTS.has(root) || (root === 'grant' && name.length > 1))) {
      fieldErrors.push({ name, errors: [text] });
    } else other.push(text);
  }
  return { fieldErrors, other };
}
