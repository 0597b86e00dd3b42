import {
  ADMIN_USER_ID,
  type ProjectView,
  sha256Hex,
  type TenantCreateBody,
  type TenantPatchBody,
  type TenantView,
} from '@gantry/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ALL_ROWS, fetchList, type ListPage, likeText } from './list';
import { request } from './request';

/** Tenant calls (docs/API.md, `user…`); the administrator's only, except reading oneself. */
const USER = 'rest/spm/user';
const userPath = (id: string) => `${USER}/${encodeURIComponent(id)}`;

export const tenantKeys = {
  all: ['tenants'] as const,
  list: (params: TenantListParams) => ['tenants', 'list', params] as const,
  one: (id: string) => ['tenants', 'one', id] as const,
  projects: (id: string) => ['tenants', 'projects', id] as const,
};

export interface TenantListParams {
  name: string;
  page: number;
  pageSize: number;
}

/** One page, newest first, optionally filtered by name (case-insensitive, literal). */
export function fetchTenants({ name, page, pageSize }: TenantListParams): Promise<ListPage<TenantView>> {
  const search = name.trim();
  return fetchList<TenantView>(USER, {
    sort: { createTime: -1 },
    skip: (page - 1) * pageSize,
    limit: pageSize,
    // the administrator's own record is no tenant
    filter: { id: { ne: ADMIN_USER_ID }, ...(search ? { name: { like: likeText(search) } } : {}) },
  });
}

export function useTenants(params: TenantListParams, enabled = true) {
  return useQuery({
    queryKey: tenantKeys.list(params),
    queryFn: () => fetchTenants(params),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function fetchTenant(id: string): Promise<TenantView> {
  return request(userPath(id));
}

export function useTenant(id: string | undefined) {
  return useQuery({ queryKey: tenantKeys.one(id ?? ''), queryFn: () => fetchTenant(id ?? ''), enabled: Boolean(id) });
}

/** Every project of a tenant (the server's largest page), newest first. */
export async function fetchTenantProjects(id: string): Promise<ProjectView[]> {
  const page = await fetchList<ProjectView>('rest/spm/project', {
    filter: { user: id },
    sort: { createTime: -1 },
    limit: ALL_ROWS,
  });
  return page.rows;
}

export function useTenantProjects(id: string | undefined) {
  return useQuery({
    queryKey: tenantKeys.projects(id ?? ''),
    queryFn: () => fetchTenantProjects(id ?? ''),
    enabled: Boolean(id),
  });
}

/** Save calls report nothing themselves: the form puts `fields` on its fields. */
export function createTenant(body: TenantCreateBody): Promise<TenantView> {
  return request(USER, { method: 'POST', body, noMessage: true });
}

export function updateTenant(id: string, body: TenantPatchBody): Promise<TenantView> {
  return request(userPath(id), { method: 'PATCH', body, noMessage: true });
}

/** The tenant and all its projects are disabled, its sessions end. */
export function disableTenant(id: string): Promise<TenantView> {
  return request(`${userPath(id)}/disable`, { method: 'PATCH' });
}

/** The tenant is enabled with the projects listed. */
export function enableTenant(id: string, projectIds: string[]): Promise<TenantView> {
  return request(`${userPath(id)}/enable`, { method: 'PATCH', body: projectIds });
}

/** 409 `tenantHasProjects` (toasted by the request layer) while it owns projects. */
export function deleteTenant(id: string): Promise<{ id: string }> {
  return request(userPath(id), { method: 'DELETE' });
}

/** Step 1 of a tenant password change: the administrator's own password (400 `verifyFailed`). */
export function verifyAdminPassword(password: string): Promise<{ message: string }> {
  return request(`${USER}/changepwd`, { method: 'POST', body: { password: sha256Hex(password) }, noMessage: true });
}

/** Step 2: the new password, with the administrator's password verified in step 1. */
export function setTenantPassword(
  id: string,
  passwords: { adminPassword: string; password: string; password1: string },
): Promise<{ id: string }> {
  return request(`${userPath(id)}/password`, {
    method: 'PUT',
    body: {
      adminPassword: sha256Hex(passwords.adminPassword),
      password: sha256Hex(passwords.password),
      password1: sha256Hex(passwords.password1),
    },
    noMessage: true,
  });
}
