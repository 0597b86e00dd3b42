import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { SECONDARY_TEXT_COLOUR } from '../../app/theme';
import { PasswordStrength } from '../../components/PasswordStrength';
import { passwordRules, repeatRules } from '../../components/PasswordStrength/rules';
import { registerAdmin } from '../../services/auth';
import { toast } from '../../services/feedback';
import { AuthShell } from '../login/components/AuthShell';

interface RegestValues {
  password: string;
  password1: string;
}

/** First run: set the admin password (console.md §2). Errors (e.g. 409 admin exists) toast from the request layer. */
export default function RegestPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<RegestValues>();
  const password = Form.useWatch('password', form);
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: RegestValues) => {
    setSubmitting(true);
    try {
      const result = await registerAdmin(values.password);
      toast.success(result?.message || t('auth.adminRegistered'));
      await navigate('/login', { replace: true });
    } catch {
      // reported by the request layer
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <AuthShell title={t('regest.title')}>
      <p style={{ marginTop: -12, marginBottom: 20, textAlign: 'center', color: SECONDARY_TEXT_COLOUR }}>
        {t('regest.subtitle')}
      </p>
      <Form<RegestValues> form={form} layout="vertical" requiredMark={false} onFinish={onFinish}>
        <Form.Item name="password" label={t('regest.password')} rules={passwordRules(t)}>
          <Input.Password data-testid="regest-password" autoComplete="new-password" size="large" />
        </Form.Item>
        <PasswordStrength password={password} />
        {password ? (
          <Form.Item
            name="password1"
            label={t('regest.password1')}
            dependencies={['password']}
            rules={repeatRules(t, 'password')}
          >
            <Input.Password data-testid="regest-password1" autoComplete="new-password" size="large" />
          </Form.Item>
        ) : null}
        <Form.Item>
          <Button data-testid="regest-submit" type="primary" htmlType="submit" size="large" block loading={submitting}>
            {t('regest.submit')}
          </Button>
        </Form.Item>
        <div style={{ textAlign: 'center', marginBottom: 8 }}>
          <Link to="/login" data-testid="regest-login-link">
            {t('regest.toLogin')}
          </Link>
        </div>
      </Form>
    </AuthShell>
  );
}
