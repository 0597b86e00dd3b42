import './texts';
import {
  FTP_LIMITS,
  FTP_TLS_MODES,
  type FtpSettings,
  type FtpSettingsInput,
  type FtpTestResult,
  type FtpTlsMode,
} from '@gantry/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Form, Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../services/feedback';
import { FTP_SETTINGS_KEY, fetchFtpSettings, saveFtpSettings, testFtpSettings } from '../../services/ftp';
import { isRequestError, reportError } from '../../services/request';

interface FtpValues {
  enabled: boolean;
  host: string;
  port: number | null;
  user: string;
  password: string;
  remoteFolder: string;
  tls: FtpTlsMode;
  allowUntrustedCertificate: boolean;
}

/** /app/settings/ftp: where database backups are copied (issue 13 §2), administrator only. */
export default function FtpSettingsPage() {
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: FTP_SETTINGS_KEY, queryFn: fetchFtpSettings });
  if (!settings.data) {
    return <Card title={t('ftp.title')} loading={settings.isPending} style={{ maxWidth: 720 }} />;
  }
  return <FtpForm settings={settings.data} />;
}

/** The body of a save or a test: an empty password field keeps (or tries) the stored password. */
function bodyOf(values: FtpValues): FtpSettingsInput {
  return {
    enabled: values.enabled,
    host: values.host.trim(),
    port: values.port ?? FTP_LIMITS.defaultPort,
    user: values.user.trim(),
    ...(values.password ? { password: values.password } : {}),
    remoteFolder: values.remoteFolder.trim(),
    tls: values.tls,
    allowUntrustedCertificate: values.allowUntrustedCertificate,
  };
}

function FtpForm({ settings }: { settings: FtpSettings }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FtpValues>();
  const tls = Form.useWatch('tls', form);
  const [passwordSet, setPasswordSet] = useState(settings.passwordSet);
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<FtpTestResult | null>(null);

  /** Server refusals beside their fields; anything else as a toast. */
  const showError = (error: unknown) => {
    const fields = isRequestError(error) ? error.fields : undefined;
    if (fields && Object.keys(fields).length > 0) {
      form.setFields(
        Object.entries(fields).map(([name, message]) => ({ name: name as keyof FtpValues, errors: [message] })),
      );
    } else reportError(error);
  };

  const onSave = async (values: FtpValues) => {
    setSaving(true);
    try {
      const saved = await saveFtpSettings(bodyOf(values));
      queryClient.setQueryData(FTP_SETTINGS_KEY, saved);
      setPasswordSet(saved.passwordSet);
      form.setFieldValue('password', '');
      toast.success(t('settings.saved'));
    } catch (error) {
      showError(error);
    } finally {
      setSaving(false);
    }
  };

  const onTest = async () => {
    setTesting(true);
    setResult(null);
    try {
      setResult(await testFtpSettings(bodyOf(form.getFieldsValue(true) as FtpValues)));
    } catch (error) {
      showError(error);
    } finally {
      setTesting(false);
    }
  };

  return (
    <Card title={t('ftp.title')} style={{ maxWidth: 720 }}>
      <Typography.Paragraph type="secondary">{t('ftp.intro')}</Typography.Paragraph>
      <Form<FtpValues>
        form={form}
        layout="vertical"
        data-testid="ftp-form"
        initialValues={{
          enabled: settings.enabled,
          host: settings.host,
          port: settings.port,
          user: settings.user,
          password: '',
          remoteFolder: settings.remoteFolder,
          tls: settings.tls,
          allowUntrustedCertificate: settings.allowUntrustedCertificate,
        }}
        onFinish={onSave}
        onValuesChange={() => setResult(null)}
      >
        <Form.Item name="enabled" label={t('ftp.enabled')} valuePropName="checked">
          <Switch data-testid="ftp-enabled" />
        </Form.Item>
        <Space align="start" wrap>
          <Form.Item
            name="host"
            label={t('ftp.hostLabel')}
            rules={[{ max: FTP_LIMITS.hostMax, message: t('ftp.host') }]}
            style={{ width: 360 }}
          >
            <Input data-testid="ftp-host" placeholder="ftp.example.com" autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="port"
            label={t('ftp.portLabel')}
            rules={[{ type: 'integer', min: 1, max: 65535, message: t('ftp.port') }]}
          >
            <InputNumber<number> data-testid="ftp-port" min={1} max={65535} precision={0} style={{ width: 120 }} />
          </Form.Item>
        </Space>
        <Space align="start" wrap>
          <Form.Item
            name="user"
            label={t('ftp.userLabel')}
            rules={[{ max: FTP_LIMITS.userMax, message: t('ftp.user') }]}
            style={{ width: 240 }}
          >
            <Input data-testid="ftp-user" autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('ftp.passwordLabel')}
            extra={t('ftp.passwordHelp')}
            rules={[{ max: FTP_LIMITS.passwordMax, message: t('ftp.password') }]}
            style={{ width: 240 }}
          >
            <Input.Password
              data-testid="ftp-password"
              autoComplete="new-password"
              placeholder={passwordSet ? t('ftp.passwordKept') : ''}
            />
          </Form.Item>
        </Space>
        <Form.Item
          name="remoteFolder"
          label={t('ftp.folderLabel')}
          extra={t('ftp.folderHelp')}
          rules={[{ max: FTP_LIMITS.folderMax, message: t('ftp.remoteFolder') }]}
        >
          <Input data-testid="ftp-folder" style={{ maxWidth: 480 }} />
        </Form.Item>
        <Form.Item name="tls" label={t('ftp.tlsLabel')}>
          <Select<FtpTlsMode>
            data-testid="ftp-tls"
            style={{ maxWidth: 360 }}
            options={FTP_TLS_MODES.map((mode) => ({ value: mode, label: t(`ftp.tls.${mode}`) }))}
          />
        </Form.Item>
        {tls !== undefined && tls !== 'none' ? (
          <Form.Item name="allowUntrustedCertificate" valuePropName="checked">
            <Checkbox data-testid="ftp-untrusted">{t('ftp.untrusted')}</Checkbox>
          </Form.Item>
        ) : null}
        <Form.Item label={t('ftp.passiveLabel')} extra={t('ftp.passiveHelp')}>
          <Switch data-testid="ftp-passive" checked disabled aria-label={t('ftp.passiveLabel')} />
        </Form.Item>
        {result ? (
          <Alert
            data-testid="ftp-test-result"
            style={{ marginBottom: 16 }}
            type={result.ok ? 'success' : 'error'}
            showIcon
            message={
              result.ok ? t('ftp.testOk') : t('ftp.testFailed', { kind: t(`ftp.failure.${result.failure ?? 'other'}`) })
            }
            description={result.message}
          />
        ) : null}
        <Space>
          <Button data-testid="ftp-test" onClick={onTest} loading={testing}>
            {t('ftp.test')}
          </Button>
          <Button data-testid="ftp-save" type="primary" htmlType="submit" loading={saving}>
            {t('ftp.save')}
          </Button>
        </Space>
      </Form>
    </Card>
  );
}
