import type { LoginResponse, PendingSignIn } from '@gantry/shared';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { signInWithCode } from '../../../services/accountSecurity';
import { codeError } from './codeError';
import { Field } from './Field';

/** The set-up (QR code: antd) loads only for an account that must set it up while signing in. */
const SignInSetup = lazy(() => import('./SignInSetup'));

/**
 * The sign-in's second step, after a right password: the authenticator app's code or a recovery
 * code ('code'), or the set-up an account must make first ('setup').
 */
export function SecondStep({
  pending,
  onSignedIn,
  onRestart,
}: {
  pending: PendingSignIn;
  onSignedIn: (user: LoginResponse) => void;
  onRestart: (message: string) => void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  const restart = () => onRestart(t('login.twoFactorExpired'));

  if (pending.twoFactor === 'setup') {
    return (
      <Suspense fallback={null}>
        <SignInSetup pendingToken={pending.pendingToken} onSignedIn={onSignedIn} onRestart={restart} />
      </Suspense>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setError(t('login.twoFactorCodeRequired'));
      return;
    }
    setSubmitting(true);
    try {
      onSignedIn(await signInWithCode(pending.pendingToken, code.trim()));
    } catch (caught) {
      setError(codeError(caught, restart, t('login.failed')));
      setCode('');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <p data-testid="login-two-factor-hint">{t('login.twoFactorHint')}</p>
      <Field id="login-two-factor" label={t('login.twoFactorCode')} error={error}>
        <input
          id="login-two-factor"
          data-testid="login-two-factor"
          className="gantry-login-input"
          aria-invalid={error ? true : undefined}
          autoComplete="one-time-code"
          // biome-ignore lint/a11y/noAutofocus: the one field of this step, right after the password
          autoFocus
          maxLength={19}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      <button
        type="submit"
        data-testid="login-two-factor-submit"
        className="gantry-login-submit"
        disabled={submitting}
        aria-busy={submitting || undefined}
      >
        {t('login.twoFactorSubmit')}
      </button>
    </form>
  );
}
