import { RETENTION_UNITS, retentionDays, type Settings } from '@gantry/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DurationInput, type DurationValue } from '../../components/DurationInput';
import { FullSettings } from '../../components/FullSettings';
import { toast } from '../../services/feedback';
import { isRequestError, reportError } from '../../services/request';
import { useSessionUser } from '../../services/session';
import { patchSettings, settingsKey } from '../../services/settings';
import { LastRun } from './LastRun';

type RetentionUnit = (typeof RETENTION_UNITS)[number];

interface RetentionValues {
  retentionPolicy: DurationValue<RetentionUnit>;
  /** Whether audit entries are deleted after `auditRetention` (off: kept for ever). */
  auditLimited: boolean;
  auditRetention: DurationValue<RetentionUnit>;
}

const atLeastOne = (message: string) => ({
  validator: (_rule: unknown, value: DurationValue<RetentionUnit> | undefined) =>
    typeof value?.count === 'number' && value.count >= 1 ? Promise.resolve() : Promise.reject(new Error(message)),
});

/**
 * /app/settings/bbs_realtime: how long time-series data and audit entries are kept (the same hourly
 * clean-up deletes both), saved with PATCH {retentionPolicy, auditRetention}.
 */
export default function RetentionPage() {
  return <FullSettings>{(settings) => <RetentionForm settings={settings} />}</FullSettings>;
}

function RetentionForm({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<RetentionValues>();
  const policy = Form.useWatch('retentionPolicy', form);
  const auditLimited = Form.useWatch('auditLimited', form);
  const [saving, setSaving] = useState(false);

  const onFinish = async ({ retentionPolicy, auditLimited: limited, auditRetention }: RetentionValues) => {
    if (typeof retentionPolicy.count !== 'number') return;
    setSaving(true);
    try {
      const saved: Settings = await patchSettings({
        retentionPolicy: { count: retentionPolicy.count, unit: retentionPolicy.unit },
        auditRetention:
          limited && typeof auditRetention?.count === 'number'
            ? { count: auditRetention.count, unit: auditRetention.unit }
            : null,
      });
      queryClient.setQueryData(settingsKey(user?.id ?? null), saved);
      toast.success(t('settings.saved'));
    } catch (error) {
      const message = isRequestError(error) ? Object.values(error.fields ?? {})[0] : undefined;
      if (message) form.setFields([{ name: 'retentionPolicy', errors: [message] }]);
      else reportError(error);
    } finally {
      setSaving(false);
    }
  };

  const days = typeof policy?.count === 'number' && policy.count > 0 ? retentionDays(policy.count, policy.unit) : null;

  return (
    <Card title={t('retention.title')} style={{ maxWidth: 640 }}>
      <Form<RetentionValues>
        form={form}
        layout="vertical"
        initialValues={{
          retentionPolicy: { count: settings.retentionPolicy.count, unit: settings.retentionPolicy.unit },
          auditLimited: settings.auditRetention !== null,
          auditRetention: settings.auditRetention
            ? { count: settings.auditRetention.count, unit: settings.auditRetention.unit }
            : { count: 1, unit: 'Y' },
        }}
        onFinish={onFinish}
      >
        <Form.Item
          name="retentionPolicy"
          label={t('retention.duration')}
          extra={t('retention.help')}
          rules={[atLeastOne(t('settings.countMin1'))]}
        >
          <DurationInput units={RETENTION_UNITS} testId="retention" />
        </Form.Item>
        {days !== null ? (
          <Typography.Paragraph data-testid="retention-days" type="secondary">
            {t('retention.days', { days })}
          </Typography.Paragraph>
        ) : null}
        <Form.Item
          name="auditLimited"
          label={t('retention.auditLimited')}
          extra={t('retention.auditHelp')}
          valuePropName="checked"
        >
          <Switch data-testid="retention-audit-limited" />
        </Form.Item>
        {auditLimited ? (
          <Form.Item
            name="auditRetention"
            label={t('retention.auditDuration')}
            rules={[atLeastOne(t('settings.countMin1'))]}
          >
            <DurationInput units={RETENTION_UNITS} testId="retention-audit" />
          </Form.Item>
        ) : null}
        <Button data-testid="retention-save" type="primary" htmlType="submit" loading={saving}>
          {t('common.save')}
        </Button>
      </Form>
      <div style={{ marginTop: 24 }}>
        <LastRun />
      </div>
    </Card>
  );
}
