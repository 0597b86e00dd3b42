/** Hash paths of the project pages. */
export const PROJECT_LIST_PATH = '/app/model/Project/list';
export const PROJECT_ADD_PATH = '/app/model/Project/add';

export function projectPath(id: string, page: 'edit' | 'detail' | 'media' | 'tables'): string {
  return `/app/model/Project/${encodeURIComponent(id)}/${page}`;
}
