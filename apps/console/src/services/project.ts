import type { ProjectCreateBody, ProjectUpdateBody, ProjectView } from '@gantry/shared';
import { fetchList } from './list';
import { request } from './request';

/** A where clause of the generic data layer (`{name: {like: 'x'}}`, `{and: [...]}`, …). */
export type Where = Record<string, unknown>;

export interface ProjectPageQuery {
  filter: Where;
  skip: number;
  limit: number;
}

export interface ProjectPage {
  items: ProjectView[];
  /** The total from the `count` header. */
  count: number;
}

const PROJECT = 'rest/spm/project';

/** One page of projects, newest first, with the total (console.md §7). */
export async function listProjects(query: ProjectPageQuery, signal?: AbortSignal): Promise<ProjectPage> {
  const { rows, total } = await fetchList<ProjectView>(
    PROJECT,
    { sort: { createTime: -1 }, skip: query.skip, limit: query.limit, filter: query.filter },
    { signal },
  );
  return { items: rows, count: total };
}

export function getProject(id: string): Promise<ProjectView> {
  return request(`${PROJECT}/${encodeURIComponent(id)}`);
}

/** Add and edit report `fields` on the form themselves. */
export function createProject(body: ProjectCreateBody): Promise<ProjectView> {
  return request(PROJECT, { method: 'POST', body, noMessage: true });
}

export function updateProject(id: string, body: ProjectUpdateBody): Promise<ProjectView> {
  return request(`${PROJECT}/${encodeURIComponent(id)}`, { method: 'PUT', body, noMessage: true });
}

export function setProjectStatus(id: string, status: boolean): Promise<ProjectView> {
  return request(`${PROJECT}/${encodeURIComponent(id)}/status`, { method: 'PATCH', body: { status } });
}

export function deleteProject(id: string, options: { noMessage?: boolean } = {}): Promise<{ id: string }> {
  return request(`${PROJECT}/${encodeURIComponent(id)}`, { method: 'DELETE', noMessage: options.noMessage });
}

/** POST project/cert: the HTTPS certificate pair of a saved project. */
export function uploadCertificates(input: { id: string; domain: string; key: File; pem: File }) {
  const body = new FormData();
  body.append('id', input.id);
  body.append('domain', input.domain);
  body.append('certKey', input.key, input.key.name);
  body.append('certPem', input.pem, input.pem.name);
  return request<{ key: string; pem: string }>(`${PROJECT}/cert`, { method: 'POST', body, noMessage: true });
}

export interface OwnerOption {
  id: string;
  name: string;
}

/** Tenants a project may belong to (administrator): GET user with id and name only. */
export function listOwnerOptions(): Promise<OwnerOption[]> {
  return request('rest/spm/user', { query: { query: JSON.stringify({ limit: 9999, project: ['id', 'name'] }) } });
}
