import type { DbBackupCycleView } from '@gantry/shared';
import { request } from './request';

/** Periodic database backup cycles (issue 13 §3; docs/API.md), every call with `x-request-project`. */
const BASE = 'rest/db-backup/cycles';
const headersFor = (projectId: string) => ({ 'x-request-project': projectId });

export interface CycleInput {
  name: string;
  hours: number;
  enabled: boolean;
  keep: number;
}

export const listCycles = (projectId: string) => request<DbBackupCycleView[]>(BASE, { headers: headersFor(projectId) });

export const createCycle = (projectId: string, input: CycleInput) =>
  request<DbBackupCycleView>(BASE, { method: 'POST', body: input, headers: headersFor(projectId) });

export const updateCycle = (projectId: string, id: string, changes: Partial<CycleInput>) =>
  request<DbBackupCycleView>(`${BASE}/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: changes,
    headers: headersFor(projectId),
  });

export const deleteCycle = (projectId: string, id: string) =>
  request<unknown>(`${BASE}/${encodeURIComponent(id)}`, { method: 'DELETE', headers: headersFor(projectId) });
