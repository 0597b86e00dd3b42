import { type ProjectView, WINDOW_OPEN_DELAY_MS } from '@gantry/shared';
import { request } from '../../services/request';
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
 * login is cleared first, and the window opens after WINDOW_OPEN_DELAY_MS. Single sign-on (the
 * project has SSO, the back office is opened): a one-time, short-lived code asked of the server goes
 * in the address's fragment (`#sso=`), never sent to a server; the console token never leaves the
 * console (issue 15).
 */
export function openSite(
  project: Pick<ProjectView, 'id' | 'port' | 'domain' | 'isUseDomain' | 'hasSSO'>,
  kind: SiteKind,
) {
  const url = siteUrl(project, kind, window.location);
  each((storage) => storage.removeItem(projectUserKey(project.id)));
  each((storage) => storage.removeItem(projectSsoKey(project.id)));
  const code =
    project.hasSSO && kind === 'admin'
      ? request<{ code: string }>(`rest/spm/project/${encodeURIComponent(project.id)}/sso`, {
          method: 'POST',
          noMessage: true,
        }).then(
          (answer) => answer.code,
          () => undefined,
        )
      : Promise.resolve(undefined);
  setTimeout(() => {
    void code.then((sso) => window.open(sso ? `${url}#sso=${encodeURIComponent(sso)}` : url, '_blank'));
  }, WINDOW_OPEN_DELAY_MS);
  return url;
}
