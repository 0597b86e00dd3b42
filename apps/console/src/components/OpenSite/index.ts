export { openSite, projectSsoKey, projectUserKey } from './openSite';
export { type SiteKind, type SiteLocation, type SiteProject, siteUrl } from './siteUrl';
