import type { Settings } from '@gantry/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Card, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FullSettings } from '../../components/FullSettings';
import { toast } from '../../services/feedback';
import { reportError } from '../../services/request';
import { useSessionUser } from '../../services/session';
import { patchSettings, settingsKey } from '../../services/settings';

/** /app/crossRequest: one switch, saved at once with PATCH {enableCors}. */
export default function CrossRequestPage() {
  return <FullSettings>{(settings) => <CorsSwitch settings={settings} />}</FullSettings>;
}

function CorsSwitch({ settings }: { settings: Settings }) {
  const { t } = useTranslation();
  const user = useSessionUser();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);

  const onChange = async (enableCors: boolean) => {
    setSaving(true);
    try {
      const saved = await patchSettings({ enableCors });
      queryClient.setQueryData(settingsKey(user?.id ?? null), saved);
      toast.success(t('settings.saved'));
    } catch (error) {
      reportError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t('cors.title')} style={{ maxWidth: 640 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
        <Switch
          data-testid="cors-switch"
          aria-labelledby="cors-enable-label"
          checked={settings.enableCors}
          loading={saving}
          onChange={(checked) => void onChange(checked)}
        />
        <span id="cors-enable-label">{t('cors.enable')}</span>
      </div>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        {t('cors.help')}
      </Typography.Paragraph>
    </Card>
  );
}
