import { type CaptchaResponse, LOGIN_PASSWORD_MAX } from '@gantry/shared';
import { Alert, Button, Checkbox, Form, Input } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { landingPath } from '../../app/access';
import { HOME_PATH } from '../../routes';
import { fetchCaptcha, login } from '../../services/auth';
import { toast } from '../../services/feedback';
import { isRequestError } from '../../services/request';
import { forgetDeliberateSignOut, setUser } from '../../services/session';
import { AuthShell } from './components/AuthShell';
import { CaptchaImage } from './components/CaptchaImage';
import { clearLoginMessage, readLoginMessage } from './loginMessage';

interface LoginValues {
  username: string;
  password: string;
  code?: string;
  remember: boolean;
}

const FORM_FIELDS = new Set(['username', 'password', 'code']);
/** Server field names that belong to a form field of another name. */
const FIELD_ALIASES: Record<string, keyof LoginValues> = { codeId: 'code', captcha: 'code' };

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form] = Form.useForm<LoginValues>();
  const [notice, setNotice] = useState<string | null>(readLoginMessage);
  const [captcha, setCaptcha] = useState<CaptchaResponse | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const captchaFor = useRef<string | null>(null);

  useEffect(() => {
    clearLoginMessage();
    forgetDeliberateSignOut();
  }, []);

  const loadCaptcha = useCallback(
    async (username: string) => {
      captchaFor.current = username;
      try {
        const next = await fetchCaptcha(username);
        setCaptcha(next.required && next.svg ? next : null);
        // a new image needs a new code; keep any error shown on the field (setFieldValue would clear it)
        form.setFields([{ name: 'code', value: undefined }]);
      } catch {
        // no captcha information: the server will ask for it (451) if needed
      }
    },
    [form],
  );

  useEffect(() => {
    void loadCaptcha('');
  }, [loadCaptcha]);

  const showError = (error: unknown) => {
    if (isRequestError(error) && (error.status === 400 || error.status === 451) && error.fields) {
      const formErrors: { name: keyof LoginValues; errors: string[] }[] = [];
      const general: string[] = [];
      for (const [key, text] of Object.entries(error.fields)) {
        const name = FIELD_ALIASES[key] ?? key;
        if (FORM_FIELDS.has(name)) formErrors.push({ name: name as keyof LoginValues, errors: [text] });
        else general.push(text);
      }
      form.setFields(formErrors);
      setNotice(general.length ? general.join(' ') : null);
      return;
    }
    const text = error instanceof Error && error.message ? error.message : '';
    const messages = text ? text.split('\n').filter(Boolean) : [];
    if (messages.length === 0) messages.push(t('login.failed'));
    for (const m of messages) toast.error(m);
  };

  const onFinish = async (values: LoginValues) => {
    setNotice(null);
    setSubmitting(true);
    try {
      const user = await login({
        username: values.username,
        password: values.password,
        remember: values.remember,
        code: captcha ? values.code : undefined,
        codeId: captcha ? captcha.id : undefined,
      });
      setUser(user, values.remember);
      await navigate(landingPath(params.get('redirect'), user, HOME_PATH), { replace: true });
    } catch (error) {
      showError(error);
      void loadCaptcha(values.username ?? '');
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthShell title={t('login.title')}>
      {notice ? (
        <Alert data-testid="login-error" type="error" showIcon title={notice} style={{ marginBottom: 16 }} />
      ) : null}
      <Form<LoginValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ remember: false }}
        onFinish={onFinish}
      >
        <Form.Item
          name="username"
          label={t('login.username')}
          rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}
        >
          <Input
            data-testid="login-username"
            autoComplete="username"
            size="large"
            onBlur={(e) => {
              const username = e.target.value.trim();
              if (username && username !== captchaFor.current) void loadCaptcha(username);
            }}
          />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('login.password')}
          rules={[
            { required: true, message: t('password.required') },
            { max: LOGIN_PASSWORD_MAX, message: t('password.tooLong') },
          ]}
        >
          <Input.Password data-testid="login-password" autoComplete="current-password" size="large" />
        </Form.Item>
        {captcha?.svg ? (
          <Form.Item label={t('login.code')} required>
            <div style={{ display: 'flex', gap: 8 }}>
              <Form.Item
                name="code"
                noStyle
                rules={[{ required: true, whitespace: true, message: t('auth.captchaRequired') }]}
              >
                <Input data-testid="login-code" autoComplete="off" size="large" maxLength={16} />
              </Form.Item>
              <CaptchaImage
                svg={captcha.svg}
                onRefresh={() => void loadCaptcha(form.getFieldValue('username') ?? '')}
              />
            </div>
          </Form.Item>
        ) : null}
        <Form.Item name="remember" valuePropName="checked">
          <Checkbox data-testid="login-remember">{t('login.remember')}</Checkbox>
        </Form.Item>
        <Form.Item>
          <Button data-testid="login-submit" type="primary" htmlType="submit" size="large" block loading={submitting}>
            {t('login.submit')}
          </Button>
        </Form.Item>
      </Form>
    </AuthShell>
  );
}
