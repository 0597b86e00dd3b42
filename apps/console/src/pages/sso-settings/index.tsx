import './texts';
import {
  INDUSTRIES,
  type Industry,
  SSO_ACCOUNT_CLAIMS,
  SSO_LIMITS,
  SSO_UNKNOWN_ACCOUNT,
  type SsoSettings,
  type SsoSettingsInput,
} from '@gantry/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Input, Radio, Select, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../services/feedback';
import { isRequestError, reportError } from '../../services/request';
import { fetchSsoSettings, SSO_SETTINGS_KEY, saveSsoSettings } from '../../services/sso';

type SsoValues = Omit<SsoSettingsInput, 'clientSecret'> & { clientSecret: string };

/** /app/settings/sso: single sign-on with OpenID Connect (issue 34 §1), administrator only. */
export default function SsoSettingsPage() {
  const { t } = useTranslation();
  const settings = useQuery({ queryKey: SSO_SETTINGS_KEY, queryFn: fetchSsoSettings });
  if (!settings.data) {
    return <Card title={t('sso.title')} loading={settings.isPending} style={{ maxWidth: 720 }} />;
  }
  return <SsoForm settings={settings.data} />;
}

/** An empty secret field keeps the stored secret. */
function bodyOf(values: SsoValues): SsoSettingsInput {
  const { clientSecret, ...rest } = values;
  return {
    ...rest,
    issuer: rest.issuer.trim(),
    clientId: rest.clientId.trim(),
    ...(clientSecret ? { clientSecret } : {}),
  };
}

function SsoForm({ settings }: { settings: SsoSettings }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SsoValues>();
  const unknownAccount = Form.useWatch('unknownAccount', form);
  const [secretSet, setSecretSet] = useState(settings.clientSecretSet);
  const [saving, setSaving] = useState(false);
  const { clientSecretSet: _set, redirectUri, ...initial } = settings;

  const onSave = async (values: SsoValues) => {
    setSaving(true);
    try {
      const saved = await saveSsoSettings(bodyOf(values));
      queryClient.setQueryData(SSO_SETTINGS_KEY, saved);
      setSecretSet(saved.clientSecretSet);
      form.setFieldValue('clientSecret', '');
      toast.success(t('settings.saved'));
    } catch (error) {
      const fields = isRequestError(error) ? error.fields : undefined;
      if (fields && Object.keys(fields).length > 0) {
        form.setFields(
          Object.entries(fields).map(([name, message]) => ({ name: name as keyof SsoValues, errors: [message] })),
        );
      } else reportError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t('sso.title')} style={{ maxWidth: 720 }}>
      <Typography.Paragraph type="secondary">{t('sso.intro')}</Typography.Paragraph>
      <Form<SsoValues>
        form={form}
        layout="vertical"
        data-testid="sso-form"
        initialValues={{ ...initial, clientSecret: '' }}
        onFinish={onSave}
      >
        <Form.Item label={t('sso.redirectUri')}>
          <Typography.Text data-testid="sso-redirect-uri" copyable code>
            {redirectUri}
          </Typography.Text>
        </Form.Item>
        <Form.Item name="enabled" label={t('sso.enabled')} valuePropName="checked">
          <Switch data-testid="sso-enabled" />
        </Form.Item>
        <Form.Item name="issuer" label={t('sso.issuerLabel')} rules={[{ max: SSO_LIMITS.issuerMax }]}>
          <Input data-testid="sso-issuer" placeholder="https://idp.example.com/realms/plant" autoComplete="off" />
        </Form.Item>
        <Form.Item name="clientId" label={t('sso.clientIdLabel')} rules={[{ max: SSO_LIMITS.clientIdMax }]}>
          <Input data-testid="sso-client-id" autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="clientSecret"
          label={t('sso.clientSecretLabel')}
          extra={t('sso.clientSecretHelp')}
          rules={[{ max: SSO_LIMITS.clientSecretMax }]}
        >
          <Input.Password
            data-testid="sso-client-secret"
            autoComplete="new-password"
            placeholder={secretSet ? t('sso.clientSecretKept') : ''}
          />
        </Form.Item>
        <Form.Item name="scopes" label={t('sso.scopesLabel')} rules={[{ max: SSO_LIMITS.scopesMax }]}>
          <Input data-testid="sso-scopes" />
        </Form.Item>
        <Form.Item name="accountClaim" label={t('sso.accountClaimLabel')} extra={t('sso.accountClaimHelp')}>
          <Select
            data-testid="sso-account-claim"
            style={{ maxWidth: 280 }}
            options={SSO_ACCOUNT_CLAIMS.map((claim) => ({ value: claim, label: claim }))}
          />
        </Form.Item>
        <Form.Item name="buttonName" label={t('sso.buttonNameLabel')} rules={[{ max: SSO_LIMITS.buttonNameMax }]}>
          <Input data-testid="sso-button-name" style={{ maxWidth: 280 }} />
        </Form.Item>
        <Form.Item name="unknownAccount" label={t('sso.unknownAccountLabel')}>
          <Radio.Group
            data-testid="sso-unknown-account"
            options={SSO_UNKNOWN_ACCOUNT.map((value) => ({ value, label: t(`sso.unknown.${value}`) }))}
          />
        </Form.Item>
        {unknownAccount === 'create' ? (
          <>
            <Form.Item name="tenantType" label={t('sso.tenantTypeLabel')}>
              <Radio.Group
                data-testid="sso-tenant-type"
                options={[0, 1].map((value) => ({ value, label: t(`tenant.type.${value as 0 | 1}`) }))}
              />
            </Form.Item>
            <Form.Item name="tenantIndustry" label={t('sso.tenantIndustryLabel')}>
              <Select<Industry>
                data-testid="sso-tenant-industry"
                style={{ maxWidth: 280 }}
                options={INDUSTRIES.map((value) => ({ value, label: t(`tenant.industry.${value}`) }))}
              />
            </Form.Item>
          </>
        ) : null}
        <Form.Item
          name="tenantPasswordLogin"
          label={t('sso.tenantPasswordLogin')}
          extra={t('sso.tenantPasswordLoginHelp')}
          valuePropName="checked"
        >
          <Switch data-testid="sso-tenant-password" />
        </Form.Item>
        <Button data-testid="sso-save" type="primary" htmlType="submit" loading={saving}>
          {t('sso.save')}
        </Button>
      </Form>
    </Card>
  );
}
