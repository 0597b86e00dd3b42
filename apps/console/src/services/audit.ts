import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchList, type ListPage, likeText } from './list';

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
}

export interface AuditListParams extends AuditFilter {
  page: number;
  pageSize: number;
}

/** The where clause of the audit list. */
export function auditWhere({ action, objectType, actor }: AuditFilter): Record<string, unknown> {
  const where: Record<string, unknown> = {};
  if (action.trim()) where.action = { like: likeText(action.trim()) };
  if (objectType) where.objectType = objectType;
  const who = actor.trim();
  if (who) where.or = [{ actorId: { like: likeText(who) } }, { actorName: { like: likeText(who) } }];
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

export function useAudit(params: AuditListParams, enabled = true) {
  return useQuery({
    queryKey: ['audit', params],
    queryFn: () => fetchAudit(params),
    placeholderData: keepPreviousData,
    enabled,
  });
}
