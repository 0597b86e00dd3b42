import type { SessionUser } from '@gantry/shared';
import type { PageRoute } from '../routes';

/** `#/app/x?y=1`, `/app/x/` and `app/x` all become `/app/x`. */
export function normalizeHashPath(path: string): string {
  let p = path.trim().replace(/^#/, '');
  p = p.split('?')[0] ?? '';
  if (!p.startsWith('/')) p = `/${p}`;
  if (p.length > 1) p = p.replace(/\/+$/, '');
  return p;
}

type AccessUser = Pick<SessionUser, 'isAdmin' | 'protectUrl'>;

/**
 * Whether the user may see the page at `pathname`. A user with a protectUrl sees that one route
 * only; admin-only pages need isAdmin; a page with a `right` needs it among `rights` (the current
 * user's, from login/current/user); any other page needs a signed-in user.
 */
export function canAccess(
  user: AccessUser | null,
  pathname: string,
  route?: Pick<PageRoute, 'access' | 'right'>,
  rights: readonly string[] = [],
): boolean {
  if (!user) return false;
  if (user.protectUrl) return normalizeHashPath(user.protectUrl) === normalizeHashPath(pathname);
  if (route?.access === 'admin' && !user.isAdmin) return false;
  if (route?.right && !rights.includes(route.right)) return false;
  return true;
}

/** Where to land after login: the redirect query when it is a hash path, else the protected route, else home. */
export function landingPath(redirect: string | null, user: AccessUser, home: string): string {
  if (redirect?.startsWith('/') && !redirect.startsWith('//') && !redirect.startsWith('/login')) return redirect;
  if (user.protectUrl) return `/${user.protectUrl.replace(/^#?\/?/, '')}`;
  return home;
}
