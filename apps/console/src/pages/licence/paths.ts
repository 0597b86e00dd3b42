import { PAGES } from '../../routes';

/** Where the licence pages lead (paths from routes.tsx). */
export const LICENCE_PATHS = {
  info: PAGES.licence.path,
  upload: PAGES.licenceUpload.path,
  services: PAGES.licenceServices.path,
  history: PAGES.licenceHistory.path,
} as const;
