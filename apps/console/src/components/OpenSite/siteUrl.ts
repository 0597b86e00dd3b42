import type { ProjectView } from '@gantry/shared';

export type SiteKind = 'front' | 'admin';
export type SiteProject = Pick<ProjectView, 'id' | 'port' | 'domain' | 'isUseDomain'>;
export interface SiteLocation {
  protocol: string;
  hostname: string;
  origin: string;
}

/**
 * Where a project's site opens (console.md §2, spec README contract 1):
 *  - with the use-domain flag and a domain: that domain (`http://` added when it has no scheme), the
 *    back office at its `/admin`;
 *  - else with a port: the current host on that port, the back office at its `/admin`;
 *  - else this origin: `/_p_{id}/` and `/admin/_p_{id}/`.
 */
export function siteUrl(project: SiteProject, kind: SiteKind, location: SiteLocation): string {
  const domain = project.domain?.trim();
  if (project.isUseDomain && domain) {
    const base = (/^https?:\/\//i.test(domain) ? domain : `http://${domain}`).replace(/\/+$/, '');
    return kind === 'admin' ? `${base}/admin` : base;
  }
  if (project.port) {
    const base = `${location.protocol}//${location.hostname}:${project.port}`;
    return kind === 'admin' ? `${base}/admin` : base;
  }
  const id = encodeURIComponent(project.id);
  return kind === 'admin' ? `${location.origin}/admin/_p_${id}/` : `${location.origin}/_p_${id}/`;
}
