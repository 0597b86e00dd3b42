import type { Settings } from '@gantry/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Skeleton } from 'antd';
import { adoptSystemLanguage } from '../../i18n';
import { useSessionUser } from '../../services/session';
import { isFullSettings, settingsKey, useSettings } from '../../services/settings';
import { SettingsForm } from './components/SettingsForm';

/** /app/settings: basic settings. After a save that changes the language, the page reloads in it. */
export default function SettingsPage() {
  const user = useSessionUser();
  const queryClient = useQueryClient();
  const { data: settings } = useSettings();

  if (!isFullSettings(settings)) return <Skeleton active />;

  const onSaved = (saved: Settings) => {
    queryClient.setQueryData(settingsKey(user?.id ?? null), saved);
    if (saved.language !== settings.language) {
      adoptSystemLanguage(saved.language);
      window.location.reload();
    }
  };

  return <SettingsForm settings={settings} onSaved={onSaved} />;
}
