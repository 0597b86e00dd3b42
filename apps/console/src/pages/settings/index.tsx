import type { Settings } from '@gantry/shared';
import { useQueryClient } from '@tanstack/react-query';
import { FullSettings } from '../../components/FullSettings';
import { adoptSystemLanguage } from '../../i18n';
import { useSessionUser } from '../../services/session';
import { settingsKey } from '../../services/settings';
import { SettingsForm } from './components/SettingsForm';

/** /app/settings: basic settings. After a save that changes the language, the page reloads in it. */
export default function SettingsPage() {
  const user = useSessionUser();
  const queryClient = useQueryClient();

  const onSaved = (previous: Settings, saved: Settings) => {
    queryClient.setQueryData(settingsKey(user?.id ?? null), saved);
    void queryClient.invalidateQueries({ queryKey: settingsKey(null) });
    if (saved.language !== previous.language) {
      adoptSystemLanguage(saved.language);
      window.location.reload();
    }
  };

  return (
    <FullSettings>
      {(settings) => <SettingsForm settings={settings} onSaved={(saved) => onSaved(settings, saved)} />}
    </FullSettings>
  );
}
