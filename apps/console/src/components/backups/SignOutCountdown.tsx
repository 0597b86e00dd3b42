import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * 'restore succeeded…' with the seconds left until the sign-out, counted down each second until
 * `at` (a Date.now() time), so the notice says what happens until it happens.
 */
export function SignOutCountdown({ message, at }: { message: string; at: number }) {
  const { t } = useTranslation();
  const left = () => Math.max(0, Math.ceil((at - Date.now()) / 1000));
  const [seconds, setSeconds] = useState(left);
  useEffect(() => {
    const timer = setInterval(() => setSeconds(left()), 250);
    return () => clearInterval(timer);
  });
  return (
    <span>
      <span data-testid="restore-succeeded">{message}</span>{' '}
      <strong data-testid="restore-countdown">{t('backups.signOutIn', { seconds })}</strong>
    </span>
  );
}
