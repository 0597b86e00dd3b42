import type { LoginResponse, TotpSetupResponse } from '@gantry/shared';
import { QRCode } from 'antd';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { confirmSetupSigningIn, startSetupSigningIn } from '../../../services/accountSecurity';
import { RecoveryCodes } from '../../user-center/RecoveryCodes';
import { codeError } from './codeError';
import { Field } from './Field';

/** Settings require a second factor of this account and it has none: set it up, then the session. */
export default function SignInSetup({
  pendingToken,
  onSignedIn,
  onRestart,
}: {
  pendingToken: string;
  onSignedIn: (user: LoginResponse) => void;
  onRestart: () => void;
}) {
  const { t } = useTranslation();
  const [setup, setSetup] = useState<TotpSetupResponse>();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<{ user: LoginResponse; codes: string[] }>();

  useEffect(() => {
    startSetupSigningIn(pendingToken).then(setSetup, (caught: unknown) =>
      setError(codeError(caught, onRestart, t('login.failed'))),
    );
  }, [pendingToken, onRestart, t]);

  if (done) {
    return (
      <div>
        <RecoveryCodes codes={done.codes} />
        <button
          type="button"
          className="gantry-login-submit"
          data-testid="login-two-factor-continue"
          onClick={() => onSignedIn(done.user)}
        >
          {t('login.twoFactorContinue')}
        </button>
      </div>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const { recoveryCodes, ...user } = await confirmSetupSigningIn(pendingToken, code.trim());
      setDone({ user, codes: recoveryCodes });
    } catch (caught) {
      setError(codeError(caught, onRestart, t('login.failed')));
    }
  };

  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <p>{t('login.twoFactorSetupHint')}</p>
      {setup ? (
        <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 8, marginBottom: 16 }}>
          <QRCode value={setup.uri} data-testid="login-two-factor-qr" />
          <code data-testid="login-two-factor-secret" style={{ wordBreak: 'break-all' }}>
            {setup.secret}
          </code>
        </div>
      ) : null}
      <Field id="login-two-factor" label={t('login.twoFactorCode')} error={error}>
        <input
          id="login-two-factor"
          data-testid="login-two-factor"
          className="gantry-login-input"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(e) => setCode(e.target.value)}
        />
      </Field>
      <button type="submit" data-testid="login-two-factor-submit" className="gantry-login-submit">
        {t('login.twoFactorSubmit')}
      </button>
    </form>
  );
}
