import type { TenantView } from '@gantry/shared';
import { Button, Form, Input, Modal, Steps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NewPasswordFields } from '../../../components/PasswordStrength/NewPasswordFields';
import { translateMessage } from '../../../i18n';
import { toast } from '../../../services/feedback';
import { isRequestError, reportError } from '../../../services/request';
import { setTenantPassword, verifyAdminPassword } from '../../../services/tenant';

interface VerifyValues {
  adminPassword: string;
}
interface NewValues {
  password: string;
  password1: string;
}

/**
 * Two-step tenant password change (console.md §4): the administrator's own password is verified
 * (`POST user/changepwd`), then the new password is set (`PUT user/{id}/password`).
 */
export function PasswordDialog({ tenant, onClose }: { tenant: TenantView; onClose: () => void }) {
  const { t } = useTranslation();
  const [verifyForm] = Form.useForm<VerifyValues>();
  const [newForm] = Form.useForm<NewValues>();
  const [adminPassword, setAdminPassword] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const verifyFailed = () => verifyForm.setFields([{ name: 'adminPassword', errors: [t('auth.verifyFailed')] }]);

  const onVerify = async ({ adminPassword: typed }: VerifyValues) => {
    setBusy(true);
    try {
      const result = await verifyAdminPassword(typed);
      toast.success(result?.message || t('auth.verifySucceeded'));
      setAdminPassword(typed);
    } catch (error) {
      if (isRequestError(error) && error.status === 400) verifyFailed();
      else reportError(error);
    } finally {
      setBusy(false);
    }
  };

  const onChange = async (values: NewValues) => {
    if (adminPassword === null) return;
    setBusy(true);
    try {
      await setTenantPassword(tenant.id, { adminPassword, ...values });
      toast.success(t('tenant.passwordChanged'));
      onClose();
    } catch (error) {
      if (isRequestError(error) && error.code === 'verifyFailed') {
        // the administrator's password changed meanwhile: verify again
        setAdminPassword(null);
        verifyFailed();
      } else if (isRequestError(error) && error.status === 400 && error.fields) {
        const known = Object.entries(error.fields).filter(([k]) => k === 'password' || k === 'password1');
        if (known.length === 0) reportError(error);
        newForm.setFields(known.map(([k, text]) => ({ name: k as keyof NewValues, errors: [translateMessage(text)] })));
      } else reportError(error);
    } finally {
      setBusy(false);
    }
  };

  const step = adminPassword === null ? 0 : 1;
  return (
    <Modal open title={t('tenant.passwordTitle', { name: tenant.name })} footer={null} onCancel={onClose}>
      <div data-testid="tenant-password-dialog" data-step={step + 1}>
        <Steps
          size="small"
          current={step}
          style={{ marginBottom: 24 }}
          items={[{ title: t('tenant.passwordStep1') }, { title: t('tenant.passwordStep2') }]}
        />
        {/* kept mounted in step 2: a failed verification there comes back to it with the error */}
        <div style={step === 0 ? undefined : { display: 'none' }}>
          <Form<VerifyValues> form={verifyForm} layout="vertical" onFinish={onVerify}>
            <Form.Item
              name="adminPassword"
              label={t('tenant.adminPassword')}
              rules={[{ required: true, message: t('password.required') }]}
            >
              <Input.Password data-testid="tenant-password-admin" autoComplete="current-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={busy} data-testid="tenant-password-verify">
              {t('tenant.verify')}
            </Button>
          </Form>
        </div>
        {step === 1 ? (
          <Form<NewValues> form={newForm} layout="vertical" onFinish={onChange}>
            <NewPasswordFields
              name="password"
              repeatName="password1"
              label={t('tenant.newPassword')}
              repeatLabel={t('tenant.newPassword1')}
              testId="tenant-password-new"
              repeatTestId="tenant-password-new1"
            />
            <Button type="primary" htmlType="submit" loading={busy} data-testid="tenant-password-submit">
              {t('common.submit')}
            </Button>
          </Form>
        ) : null}
      </div>
    </Modal>
  );
}
