import type { PublicSettings, Settings, SettingsPatch } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import { request } from './request';
import { useSessionUser } from './session';

/** Without a token the server answers the public part; with an admin token, everything. */
export type AnySettings = PublicSettings | Settings;

export function isFullSettings(settings: AnySettings | undefined): settings is Settings {
  return settings !== undefined && 'errorLogin' in settings;
}

export function settingsKey(userId: string | null): readonly ['setting', string] {
  return ['setting', userId ?? 'public'];
}

export function fetchSettings(): Promise<AnySettings> {
  return request('rest/spm/setting', { noMessage: true });
}

/** The settings as the current user may read them (the public part when signed out). */
export function useSettings() {
  const user = useSessionUser();
  return useQuery({ queryKey: settingsKey(user?.id ?? null), queryFn: fetchSettings, staleTime: 60_000 });
}

/** PUT the whole settings; validation failures come back as `fields` (no toast for those). */
export function saveSettings(settings: Settings): Promise<Settings> {
  return request('rest/spm/setting', { method: 'PUT', body: settings, noMessage: true });
}

export function patchSettings(patch: SettingsPatch): Promise<Settings> {
  return request('rest/spm/setting', { method: 'PATCH', body: patch, noMessage: true });
}
