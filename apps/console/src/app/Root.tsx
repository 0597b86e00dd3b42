import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, useNavigation } from 'react-router';
import { followSystemLanguage, isLanguage } from '../i18n';
import { checkAdminAtStart } from '../services/auth';
import { routeChanged, toast } from '../services/feedback';
import { currentHashPath } from '../services/navigation';
import { isRequestError } from '../services/request';
import { useSettings } from '../services/settings';

/**
 * The root of every route. At start: is there an admin password yet (else go to /regest)?
 * Settings give the product name (document title) and the system language.
 */
export function Root() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const { data: settings } = useSettings();

  // Warnings and errors of the page being left close (services/feedback.ts).
  useEffect(() => routeChanged(pathname), [pathname]);

  // Runs at app start. Not cancelled on unmount: the router may remount the root while the first
  // routes load, and the answer must still lead to /regest.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, at app start
  useEffect(() => {
    checkAdminAtStart().catch((error: unknown) => {
      if (!isRequestError(error)) return;
      if (error.status === 404 || error.code === 'adminMissing') {
        // about the registration page, where it is going
        toast.warning(t('auth.adminMissing'), { route: '/regest' });
        if (!currentHashPath().startsWith('/regest')) void navigate('/regest', { replace: true });
      }
    });
  }, []);

  useEffect(() => {
    if (!settings) return;
    if (settings.name) document.title = settings.name;
    if (isLanguage(settings.language)) followSystemLanguage(settings.language);
  }, [settings]);

  return (
    <>
      {navigation.state === 'loading' ? <div className="gantry-route-progress" aria-hidden /> : null}
      <Outlet />
    </>
  );
}
