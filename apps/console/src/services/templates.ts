import type { Industry, ProjectCreateBody, ProjectView, TemplatePatchBody, TemplateView } from '@gantry/shared';
import { request, requestWithHeaders } from './request';
import { getToken } from './session';

const TEMPLATES = 'rest/spm/templates';

export interface TemplateSearch {
  name?: string;
  industry?: Industry | '';
}

/** The gallery (console.md §7 `GET templates?name_contains&industry`), most installed first. */
export async function listTemplates(search: TemplateSearch, signal?: AbortSignal): Promise<TemplateView[]> {
  const query: Record<string, string> = { limit: '1000' };
  if (search.name?.trim()) query.name_contains = search.name.trim();
  if (search.industry) query.industry = search.industry;
  const { data } = await requestWithHeaders<TemplateView[]>(TEMPLATES, { query, signal });
  return Array.isArray(data) ? data : [];
}

export function getTemplate(id: string, options: { noMessage?: boolean } = {}): Promise<TemplateView> {
  return request(`${TEMPLATES}/${encodeURIComponent(id)}`, { noMessage: options.noMessage });
}

export type ProjectFromTemplate = ProjectView & { task: { id: string; requestId: string } };

/** `POST project/_template`: the project now, its content as a task. Failures are reported by the form. */
export function createProjectFromTemplate(body: ProjectCreateBody): Promise<ProjectFromTemplate> {
  return request('rest/spm/project/_template', { method: 'POST', body, noMessage: true });
}

export interface TaskState {
  id: string;
  status: 'ongoing' | 'pause' | 'success' | 'failed';
  progress: number;
  message: string | null;
}

export function getTask(id: string): Promise<TaskState> {
  return request(`rest/spm/proxy/core/taskmanager/${encodeURIComponent(id)}`, { noMessage: true });
}

/** `PATCH templates/{id}`: the card, or published. */
export function patchTemplate(id: string, body: TemplatePatchBody): Promise<TemplateView> {
  return request(`${TEMPLATES}/${encodeURIComponent(id)}`, { method: 'PATCH', body });
}

export function deleteTemplate(id: string): Promise<{ id: string }> {
  return request(`${TEMPLATES}/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** The package's download link (its owner's: the token in the query, as every download link). */
export function packageLink(template: TemplateView): string | null {
  const token = getToken();
  if (!template.download_url || !token) return null;
  return `${template.download_url}?token=${encodeURIComponent(token)}`;
}

export interface PublishInput {
  projectId: string;
  name: string;
  industry: Industry;
  developer: string;
  contact?: string;
  intro?: string;
  description?: string;
  /** An uploaded image's URL (`uploadTemplateImage`); empty: drawn by the server. */
  cover?: string;
  images?: string[];
  /** Collections carried (linked ones follow); the media library and the front-end package. */
  modules?: string[];
  fileServer?: boolean;
  html?: boolean;
}

/** `POST templates/images`: a cover or description image (multipart `file`); answers its URL. */
export function uploadTemplateImage(file: File | Blob): Promise<{ url: string }> {
  const body = new FormData();
  body.append('file', file);
  return request(`${TEMPLATES}/images`, { method: 'POST', body });
}

/** `POST templates`: publishes a project as a template (a task). */
export function publishTemplate(body: PublishInput): Promise<{ id: string; requestId: string; templateId: string }> {
  return request(TEMPLATES, { method: 'POST', body, noMessage: true });
}

/** `POST templates/import`: a template package (a project backup archive) becomes the caller's template. */
export function importTemplate(file: File | Blob): Promise<TemplateView> {
  const body = new FormData();
  body.append('file', file);
  return request(`${TEMPLATES}/import`, { method: 'POST', body });
}
