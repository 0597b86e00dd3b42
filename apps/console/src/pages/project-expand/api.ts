import type { ProjectBatchBody, ProjectExpand, Settings } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../services/request';

export const EXPAND_KEY = ['project', '_expand'] as const;

/** The extension schema (every signed-in user may read it). */
export function useProjectExpand() {
  return useQuery({
    queryKey: EXPAND_KEY,
    queryFn: () => request<ProjectExpand>('rest/spm/project/_expand', { noMessage: true }),
  });
}

export function saveProjectExpand(projectExpand: ProjectExpand): Promise<Settings> {
  return request('rest/spm/setting', { method: 'PATCH', body: { projectExpand }, noMessage: true });
}

export function batchChangeProjects(body: ProjectBatchBody): Promise<{ updated: number; message: string }> {
  return request('rest/spm/project/_batch', { method: 'PATCH', body, noMessage: true });
}
