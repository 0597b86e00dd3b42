import { PAGES } from '../../routes';

/** Where the licence pages lead (paths from routes.tsx). */
export const LICENCE_PATHS = {
  info: PAGES.license.path,
  upload: PAGES.licenseUpload.path,
  services: PAGES.licenseServices.path,
  history: PAGES.licenceHistory.path,
} as const;
