import { type ProjectView, WINDOW_OPEN_DELAY_MS } from '@gantry/shared';
import { getToken } from '../../services/session';
import { type SiteKind, siteUrl } from './siteUrl';

/**
 * The project sites' own storage keys. The console's session (`gantry.user`) is never touched:
 * clearing it would sign the administrator out of the console.
 */
export const projectUserKey = (id: string) => `gantry.project.${id}.user`;
export const projectSsoKey = (id: string) => `gantry.project.${id}.sso`;

function each(action: (storage: Storage) => void): void {
  for (const get of [() => localStorage, () => sessionStorage]) {
    try {
      action(get());
    } catch {
      // storage unavailable
    }
  }
}

/**
 * Opens a project's front site or back office in a new window (console.md §2): the project's stored
 * login is cleared first, the console token is left for single sign-on when the project has SSO,
 * and the window opens after WINDOW_OPEN_DELAY_MS.
 */
export function openSite(
  project: Pick<ProjectView, 'id' | 'port' | 'domain' | 'isUseDomain' | 'hasSSO'>,
  kind: SiteKind,
) {
  const url = siteUrl(project, kind, window.location);
  each((storage) => storage.removeItem(projectUserKey(project.id)));
  const token = project.hasSSO ? getToken() : null;
  each((storage) => storage.removeItem(projectSsoKey(project.id)));
  if (token) localStorage.setItem(projectSsoKey(project.id), token);
  setTimeout(() => window.open(url, '_blank'), WINDOW_OPEN_DELAY_MS);
  return url;
}
