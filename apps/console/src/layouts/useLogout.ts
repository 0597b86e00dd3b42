import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { logout } from '../services/auth';
import { toast } from '../services/feedback';
import { clearUser } from '../services/session';

/** POST login/exit, then forget the user and go to /login (even when the call fails). */
export function useLogout(): () => Promise<void> {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(async () => {
    let text: string = t('auth.loggedOut');
    try {
      const result = await logout();
      if (result?.message) text = result.message;
    } catch {
      // the session ends here anyway
    }
    clearUser({ deliberate: true });
    await navigate('/login', { replace: true });
    // nothing of the signed-in user survives; the login page reads the public settings afresh
    queryClient.removeQueries();
    toast.success(text);
  }, [navigate, queryClient, t]);
}
