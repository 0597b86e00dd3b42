import { Navigate, useLocation } from 'react-router';
import { useCurrentUser } from '../services/auth';
import { signedOutDeliberately, useSessionUser } from '../services/session';
import { AdminLayout } from './AdminLayout';
import { MobileLayout } from './MobileLayout';
import { TenantLayout } from './TenantLayout';
import { useIsMobile } from './useIsMobile';

/** /app: signed-in users only; the layout follows the screen width and the user's role. */
export default function AppLayout() {
  const user = useSessionUser();
  const location = useLocation();
  const isMobile = useIsMobile();
  useCurrentUser();
  if (!user) {
    if (signedOutDeliberately()) return <Navigate to="/login" replace />;
    const redirect = encodeURIComponent(`${location.pathname}${location.search}`);
    return <Navigate to={`/login?redirect=${redirect}`} replace />;
  }
  if (isMobile) return <MobileLayout isAdmin={user.isAdmin} />;
  return user.isAdmin ? <AdminLayout /> : <TenantLayout />;
}
