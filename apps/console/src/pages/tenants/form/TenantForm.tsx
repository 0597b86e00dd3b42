import { INDUSTRIES, type TenantView, tenantCreateBody } from '@gantry/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Checkbox, Form, type FormInstance, Input, Radio, Select, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PATHS } from '../../../app/paths';
import GrantForm from '../../../components/GrantForm';
import { ImageUpload } from '../../../components/ImageUpload';
import { PasswordStrength } from '../../../components/PasswordStrength';
import { passwordRules, repeatRules } from '../../../components/PasswordStrength/rules';
import { translateMessage } from '../../../i18n';
import { toast } from '../../../services/feedback';
import { useUnusedLicence } from '../../../services/licence';
import { isRequestError, reportError } from '../../../services/request';
import { createTenant, tenantKeys, updateTenant } from '../../../services/tenant';
import { buildCreateBody, buildPatchBody, mapTenantFields, type TenantFormValues, toFormValues } from './tenantForm';

const PERMISSIONS = ['ownTemplates', 'marketTemplates', 'blankProjects'] as const;

/** The user id rule of the shared `tenantCreateBody` (optional; generated when empty). */
const idRule: Rule = {
  validator: async (_rule, value: unknown) => {
    if (typeof value !== 'string' || value.trim() === '') return;
    const parsed = tenantCreateBody.shape.id.safeParse(value);
    if (!parsed.success) throw new Error(translateMessage(parsed.error.issues[0]?.message ?? 'tenant.idRule'));
  },
};

/** Add (id and passwords) or edit a tenant, with its grant drawn from the platform licence. */
export function TenantForm({ tenant }: { tenant: TenantView | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<TenantFormValues>();
  const password = Form.useWatch('password', form);
  const [saving, setSaving] = useState(false);
  const isAdd = tenant === undefined;
  const pool = useUnusedLicence({ target: 'tenant', ...(tenant ? { except: tenant.id } : {}) });

  const showFields = (fields: Record<string, string>) => {
    const { fieldErrors, other } = mapTenantFields(fields);
    // dotted server paths (grant.flow.tableCount) are not typed names: set them untyped
    (form as FormInstance).setFields(fieldErrors);
    for (const text of other) toast.error(text);
  };

  /** Builds the body with the shared schema (its problems go on the fields) and sends it. */
  const send = (values: TenantFormValues): Promise<TenantView> | null => {
    if (isAdd) {
      const built = buildCreateBody(values);
      if (built.ok) return createTenant(built.body);
      showFields(built.fields);
      return null;
    }
    const built = buildPatchBody(values);
    if (built.ok) return updateTenant(tenant.id, built.body);
    showFields(built.fields);
    return null;
  };

  const onFinish = async (values: TenantFormValues) => {
    const pending = send(values);
    if (!pending) return;
    setSaving(true);
    try {
      const saved = await pending;
      toast.success(t('tenant.saved'));
      queryClient.setQueryData(tenantKeys.one(saved.id), saved);
      await queryClient.invalidateQueries({ queryKey: tenantKeys.all });
      await navigate(PATHS.tenants);
    } catch (error) {
      if (isRequestError(error) && error.status === 400 && error.fields && Object.keys(error.fields).length > 0) {
        showFields(error.fields);
      } else reportError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<TenantFormValues>
      form={form}
      layout="vertical"
      initialValues={toFormValues(tenant)}
      onFinish={onFinish}
      data-testid="tenant-form"
    >
      <Card title={t(isAdd ? 'tenant.createTitle' : 'tenant.editTitle')} style={{ marginBottom: 16 }}>
        {isAdd ? (
          <Form.Item name="id" label={t('tenant.userId')} extra={t('tenant.userIdHelp')} rules={[idRule]}>
            <Input data-testid="tenant-form-id" autoComplete="off" />
          </Form.Item>
        ) : null}
        <Form.Item
          name="name"
          label={t('tenant.name')}
          rules={[{ required: true, whitespace: true, message: t('tenant.nameRequired') }]}
        >
          <Input data-testid="tenant-form-name" maxLength={64} />
        </Form.Item>
        <Form.Item name="type" label={t('tenant.type')} rules={[{ required: true, message: t('tenant.typeRequired') }]}>
          <Radio.Group data-testid="tenant-form-type">
            <Radio value={0} data-testid="tenant-form-type-0">
              {t('tenant.type.0')}
            </Radio>
            <Radio value={1} data-testid="tenant-form-type-1">
              {t('tenant.type.1')}
            </Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="industry"
          label={t('tenant.industry')}
          rules={[{ required: true, message: t('tenant.industryRequired') }]}
        >
          <Select
            data-testid="tenant-form-industry"
            options={INDUSTRIES.map((value) => ({ value, label: t(`tenant.industry.${value}`) }))}
          />
        </Form.Item>
        <Form.Item name="logo" label={t('tenant.logo')}>
          <ImageUpload testId="tenant-form-logo" />
        </Form.Item>
        <Form.Item name="remarks" label={t('tenant.remarks')}>
          <Input.TextArea data-testid="tenant-form-remarks" rows={3} maxLength={500} showCount />
        </Form.Item>
        <Form.Item label={t('tenant.permissions')} style={{ marginBottom: 0 }}>
          <Space wrap>
            {PERMISSIONS.map((key) => (
              <Form.Item key={key} name={['permissions', key]} valuePropName="checked" noStyle>
                <Checkbox data-testid={`tenant-form-perm-${key}`}>{t(`tenant.perm.${key}`)}</Checkbox>
              </Form.Item>
            ))}
          </Space>
        </Form.Item>
        {isAdd ? (
          <>
            <Form.Item name="password" label={t('tenant.password')} rules={passwordRules(t)} style={{ marginTop: 24 }}>
              <Input.Password data-testid="tenant-form-password" autoComplete="new-password" />
            </Form.Item>
            <PasswordStrength password={password} />
            {password ? (
              <Form.Item
                name="password1"
                label={t('tenant.password1')}
                dependencies={['password']}
                rules={repeatRules(t, 'password')}
              >
                <Input.Password data-testid="tenant-form-password1" autoComplete="new-password" />
              </Form.Item>
            ) : null}
          </>
        ) : null}
      </Card>
      <Card title={t('tenant.grant')} style={{ marginBottom: 16 }}>
        <GrantForm name="grant" pool={pool.data} previousStart={tenant?.grant?.startTime} parentLabel="platform" />
      </Card>
      <Space>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="tenant-form-submit">
          {t('common.save')}
        </Button>
        <Button data-testid="tenant-form-cancel" onClick={() => void navigate(PATHS.tenants)}>
          {t('tenant.cancel')}
        </Button>
      </Space>
    </Form>
  );
}
