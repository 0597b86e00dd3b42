import type { AuditExportFormat } from '@gantry/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchList, type ListPage, likeText } from './list';
import { download } from './request';

/** One audit entry (GET audit, administrator; the dashboard's recent ones). */
export interface AuditEntry {
  id: number | string;
  at: string;
  actorId: string;
  actorName: string;
  tenantId: string | null;
  action: string;
  objectType: string;
  objectId: string | null;
  ip: string | null;
  detail: Record<string, unknown> | null;
}

export interface AuditFilter {
  /** Part of the action code (`tenant.disable`), case-insensitive. */
  action: string;
  objectType: string;
  /** Part of the actor's id or name. */
  actor: string;
  /** The object's id, exactly (a tenant, project, …). */
  target: string;
  /** ISO times: from (inclusive) and to (exclusive); empty: open. */
  from: string;
  to: string;
}

export interface AuditListParams extends AuditFilter {
  page: number;
  pageSize: number;
}

/** The where clause of the audit list. */
export function auditWhere({ action, objectType, actor, target, from, to }: AuditFilter): Record<string, unknown> {
  const where: Record<string, unknown> = {};
  if (action.trim()) where.action = { like: likeText(action.trim()) };
  if (objectType) where.objectType = objectType;
  const who = actor.trim();
  if (who) where.or = [{ actorId: { like: likeText(who) } }, { actorName: { like: likeText(who) } }];
  if (target.trim()) where.objectId = target.trim();
  if (from || to) where.at = { ...(from ? { gte: from } : {}), ...(to ? { lt: to } : {}) };
  return where;
}

export function fetchAudit(params: AuditListParams): Promise<ListPage<AuditEntry>> {
  return fetchList<AuditEntry>('rest/spm/audit', {
    sort: { at: -1 },
    skip: (params.page - 1) * params.pageSize,
    limit: params.pageSize,
    filter: auditWhere(params),
  });
}

/** The entries the filter matches as a file (CSV or JSON lines), streamed by the server; the file and its name. */
export function exportAudit(filter: AuditFilter, format: AuditExportFormat) {
  return download('rest/spm/audit/export', { query: { format, query: JSON.stringify(auditWhere(filter)) } });
}

export function useAudit(params: AuditListParams, enabled = true) {
  return useQuery({
    queryKey: ['audit', params],
    queryFn: () => fetchAudit(params),
    placeholderData: keepPreviousData,
    enabled,
  });
}
