import { type TenantView, viewGrant } from '@gantry/shared';
import type { UserRow } from '../users/user.repository.js';

/** A user record as the API answers it (`withSettings`: with its table preferences, for itself or one record). */
export function tenantViewOf(row: UserRow, today: string, withSettings = false): TenantView {
  return {
    id: row.id,
    user: row.id,
    name: row.name,
    type: row.type,
    industry: row.industry,
    grant: row.grant ? viewGrant(row.grant, today) : null,
    status: row.status,
    createTime: row.createdAt.toISOString(),
    remarks: row.remarks,
    logo: row.logo,
    permissions: row.permissions,
    isAdmin: row.isAdmin,
    ...(withSettings ? { tableSettings: row.tableSettings } : {}),
  };
}
