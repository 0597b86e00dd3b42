import { Button, Card, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { NewPasswordFields } from '../../components/PasswordStrength/NewPasswordFields';
import { changePassword } from '../../services/auth';
import { toast } from '../../services/feedback';
import { isRequestError, reportError } from '../../services/request';
import { clearUser } from '../../services/session';

interface ChangeValues {
  oldPassword: string;
  newPassword: string;
  newPassword2: string;
}

const FIELDS = new Set<string>(['oldPassword', 'newPassword', 'newPassword2']);

/** Old / new / repeat. Success ends the session and goes to /login (console.md §4). */
export default function ChangePasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<ChangeValues>();
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async (values: ChangeValues) => {
    setSubmitting(true);
    try {
      const result = await changePassword(values.oldPassword, values.newPassword, values.newPassword2);
      toast.success(result?.message || t('auth.passwordChanged'));
      // Forget the dead token before anything can call with it; no ?redirect back to this page.
      clearUser({ deliberate: true });
      await navigate('/login', { replace: true });
    } catch (error) {
      if (isRequestError(error) && error.code === 'oldPasswordWrong') {
        form.setFields([{ name: 'oldPassword', errors: [error.message || t('auth.oldPasswordWrong')] }]);
      } else if (isRequestError(error) && error.fields && Object.keys(error.fields).some((k) => FIELDS.has(k))) {
        form.setFields(
          Object.entries(error.fields)
            .filter(([k]) => FIELDS.has(k))
            .map(([name, text]) => ({ name: name as keyof ChangeValues, errors: [text] })),
        );
      } else {
        reportError(error);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Card title={t('changePassword.title')} style={{ maxWidth: 560 }}>
      <Form<ChangeValues> form={form} layout="vertical" onFinish={onFinish}>
        <Form.Item
          name="oldPassword"
          label={t('changePassword.old')}
          rules={[{ required: true, message: t('password.required') }]}
        >
          <Input.Password data-testid="change-old" autoComplete="current-password" />
        </Form.Item>
        <NewPasswordFields
          name="newPassword"
          repeatName="newPassword2"
          label={t('changePassword.new')}
          repeatLabel={t('changePassword.new2')}
          testId="change-new"
          repeatTestId="change-new2"
        />
        <Button data-testid="change-submit" type="primary" htmlType="submit" loading={submitting}>
          {t('changePassword.submit')}
        </Button>
      </Form>
    </Card>
  );
}
