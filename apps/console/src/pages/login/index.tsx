import type { CaptchaResponse, LoginResponse, PendingSignIn, SsoLoginOptions } from '@gantry/shared';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { landingPath } from '../../app/access';
import { HOME_PATH } from '../../app/paths';
import { isPendingSignIn } from '../../services/accountSecurity';
import { fetchCaptcha, login } from '../../services/auth';
import { toast } from '../../services/feedback';
import { isRequestError } from '../../services/request';
import { forgetDeliberateSignOut, setUser } from '../../services/session';
import { fetchSsoOptions, redeemSsoTicket, ssoStartUrl } from '../../services/sso';
import { AuthShell } from './components/AuthShell';
import { CaptchaImage } from './components/CaptchaImage';
import { Field } from './components/Field';
import { PasswordInput } from './components/PasswordInput';
import { SecondStep } from './components/SecondStep';
import './login.css';
import {
  EMPTY_LOGIN,
  type LoginErrors,
  type LoginField,
  type LoginValues,
  splitServerFields,
  validateField,
  validateLogin,
} from './loginForm';
import { clearLoginMessage, readLoginMessage } from './loginMessage';

export default function LoginPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [values, setValues] = useState<LoginValues>(EMPTY_LOGIN);
  const [errors, setErrors] = useState<LoginErrors>({});
  const [notice, setNotice] = useState<string | null>(readLoginMessage);
  const [captcha, setCaptcha] = useState<CaptchaResponse | null>(null);
  const [submitting, setSubmitting] = useState(false);
  /** The second step of a sign-in whose password was right (two-factor sign-in). */
  const [pending, setPending] = useState<PendingSignIn | null>(null);
  const captchaFor = useRef<string | null>(null);
  const codeShown = Boolean(captcha?.svg);
  const [sso, setSso] = useState<SsoLoginOptions | null>(null);
  const ticket = params.get('sso');
  const ssoError = params.get('ssoError');

  useEffect(() => {
    fetchSsoOptions().then(setSso, () => setSso(null));
  }, []);

  // Back from the identity provider: a refusal to show, or a one-time ticket to trade for a session.
  useEffect(() => {
    if (ssoError) {
      const key = `login.sso.error.${ssoError}`;
      setNotice(i18n.exists(key) ? t(key as 'login.sso.error.ssoFailed') : t('login.sso.error.ssoFailed'));
      return;
    }
    if (!ticket) return;
    redeemSsoTicket(ticket).then(
      async ({ returnPath, ...user }) => {
        setUser(user, false);
        await navigate(landingPath(returnPath, user, HOME_PATH), { replace: true });
      },
      (error: unknown) => {
        setNotice(error instanceof Error && error.message ? error.message : t('login.sso.error.ssoFailed'));
        void navigate('/login', { replace: true });
      },
    );
  }, [ticket, ssoError, navigate, t, i18n]);

  useEffect(() => {
    clearLoginMessage();
    forgetDeliberateSignOut();
  }, []);

  const loadCaptcha = useCallback(async (username: string) => {
    captchaFor.current = username;
    try {
      const next = await fetchCaptcha(username);
      setCaptcha(next.required && next.svg ? next : null);
      // a new image needs a new code (any error shown on the field stays)
      setValues((v) => ({ ...v, code: '' }));
    } catch {
      // no captcha information: the server will ask for it (451) if needed
    }
  }, []);

  useEffect(() => {
    void loadCaptcha('');
  }, [loadCaptcha]);

  const change = (field: LoginField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    setErrors((e) => ({ ...e, [field]: validateField(field, next, codeShown, t) }));
  };

  const showError = (error: unknown) => {
    if (isRequestError(error) && (error.status === 400 || error.status === 451) && error.fields) {
      const { errors: fieldErrors, general } = splitServerFields(error.fields);
      setErrors(fieldErrors);
      setNotice(general.length ? general.join(' ') : null);
      return;
    }
    const text = error instanceof Error && error.message ? error.message : '';
    const messages = text ? text.split('\n').filter(Boolean) : [];
    if (messages.length === 0) messages.push(t('login.failed'));
    for (const m of messages) toast.error(m);
  };

  const signedIn = async (user: LoginResponse) => {
    setUser(user, values.remember);
    await navigate(landingPath(params.get('redirect'), user, HOME_PATH), { replace: true });
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateLogin(values, codeShown, t);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setNotice(null);
    setSubmitting(true);
    try {
      const answer = await login({
        username: values.username,
        password: values.password,
        remember: values.remember,
        code: captcha ? values.code.trim() : undefined,
        codeId: captcha ? captcha.id : undefined,
      });
      if (isPendingSignIn(answer)) setPending(answer);
      else await signedIn(answer);
    } catch (error) {
      showError(error);
      void loadCaptcha(values.username.trim());
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthShell title={t('login.title')}>
      {notice ? (
        <div data-testid="login-error" role="alert" className="gantry-login-alert">
          {notice}
        </div>
      ) : null}
      {pending ? (
        <SecondStep
          pending={pending}
          onSignedIn={(user) => void signedIn(user)}
          onRestart={(message) => {
            setPending(null);
            setValues((v) => ({ ...v, password: '' }));
            setNotice(message);
          }}
        />
      ) : null}
      <form noValidate hidden={pending !== null} onSubmit={(e) => void onSubmit(e)}>
        <Field id="login-username" label={t('login.username')} error={errors.username}>
          <input
            id="login-username"
            data-testid="login-username"
            className="gantry-login-input"
            aria-invalid={errors.username ? true : undefined}
            autoComplete="username"
            value={values.username}
            onChange={(e) => change('username', e.target.value)}
            onBlur={(e) => {
              const username = e.target.value.trim();
              if (username && username !== captchaFor.current) void loadCaptcha(username);
            }}
          />
        </Field>
        <Field id="login-password" label={t('login.password')} error={errors.password}>
          <PasswordInput
            id="login-password"
            invalid={Boolean(errors.password)}
            value={values.password}
            onChange={(value) => change('password', value)}
          />
        </Field>
        {captcha?.svg ? (
          <Field id="login-code" label={t('login.code')} error={errors.code}>
            <div style={{ display: 'flex', gap: 8 }}>
              <input
                id="login-code"
                data-testid="login-code"
                className="gantry-login-input"
                aria-invalid={errors.code ? true : undefined}
                autoComplete="off"
                maxLength={16}
                value={values.code}
                onChange={(e) => change('code', e.target.value)}
              />
              <CaptchaImage svg={captcha.svg} onRefresh={() => void loadCaptcha(values.username.trim())} />
            </div>
          </Field>
        ) : null}
        <label className="gantry-login-remember">
          <input
            type="checkbox"
            data-testid="login-remember"
            checked={values.remember}
            onChange={(e) => setValues((v) => ({ ...v, remember: e.target.checked }))}
          />
          <span>{t('login.remember')}</span>
        </label>
        <button
          type="submit"
          data-testid="login-submit"
          className="gantry-login-submit"
          disabled={submitting}
          aria-busy={submitting || undefined}
        >
          {submitting ? <span className="gantry-login-spinner" aria-hidden /> : null}
          {t('login.submit')}
        </button>
      </form>
      {sso?.enabled ? (
        <div className="gantry-login-sso">
          <div className="gantry-login-or">{t('login.sso.or')}</div>
          <a data-testid="login-sso" className="gantry-login-sso-button" href={ssoStartUrl(params.get('redirect'))}>
            {sso.buttonName}
          </a>
          {sso.tenantPasswordLogin ? null : (
            <p data-testid="login-sso-admin-only" className="gantry-login-sso-note">
              {t('login.sso.passwordAdminOnly')}
            </p>
          )}
        </div>
      ) : null}
    </AuthShell>
  );
}
