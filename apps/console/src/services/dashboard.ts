import type { BackupFailureView, GrantView } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import type { AuditEntry } from './audit';
import { request } from './request';

export interface StatusCounts {
  enabled: number;
  disabled: number;
}

/** One measure of the licence in force: granted (null = no limit), held by children, in use. */
export interface MeasureUse {
  path: string;
  granted: number | null;
  allocated: number;
  used: number;
}

/** A tenant or project whose grant ends within LICENCE_WARNING_DAYS. */
export interface ExpiringGrant {
  id: string;
  name: string;
  /** The first day the grant no longer covers. */
  endTime: string;
  remainingTime: number;
}

/** GET dashboard (docs/API.md): the administrator's view, or a tenant's own. */
export interface Dashboard {
  tenants: StatusCounts | null;
  projects: StatusCounts;
  licence: { kind: 'platform' | 'tenant'; grant: GrantView; measures: MeasureUse[] } | null;
  expiring: { tenants: ExpiringGrant[]; projects: ExpiringGrant[] };
  audit: AuditEntry[];
  /** Periodic backups whose latest run failed (issue 13 §3); absent from an older server. */
  backupFailures?: BackupFailureView[];
  today?: string;
}

export function fetchDashboard(): Promise<Dashboard> {
  return request('rest/spm/dashboard');
}

export function useDashboard() {
  return useQuery({ queryKey: ['dashboard'], queryFn: fetchDashboard, staleTime: 30_000 });
}
