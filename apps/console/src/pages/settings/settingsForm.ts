import {
  type CAPTCHA_MODES,
  type FREEZE_UNITS,
  type LANGUAGES,
  type LOGIN_DURATION_UNITS,
  normalizeSettings,
  type PUBLIC_DIR_FEATURES,
  type Settings,
  settingsSchema,
} from '@gantry/shared';
import type { DurationValue } from '../../components/DurationInput';
import { longestField } from '../../utils/fieldErrors';

/** What the basic-settings form edits (the rest of Settings is kept as loaded). */
export interface SettingsFormValues {
  name: string;
  copyright: string;
  language: (typeof LANGUAGES)[number];
  helpUrl: string;
  logo: string;
  backgroundImage: string;
  project_logo: string;
  project_backgroundImage: string;
  errorLogin: { count: number | null; duration: DurationValue<(typeof FREEZE_UNITS)[number]> };
  loginDuration: DurationValue<(typeof LOGIN_DURATION_UNITS)[number]>;
  captcha: (typeof CAPTCHA_MODES)[number];
  mediaLibrary: { publicDirEnable: boolean; publicDirFeature: (typeof PUBLIC_DIR_FEATURES)[number][] };
  /** The project port range; an emptied input is null (refused by the schema on save). */
  sitePorts: { min: number | null; max: number | null };
  /** Who must sign in with a second factor. */
  twoFactor: { admin: boolean; tenants: boolean };
}

/** Form item names, as dotted paths; server `fields` keys map onto the longest one they start with. */
const FORM_FIELDS = [
  'name',
  'copyright',
  'language',
  'helpUrl',
  'logo',
  'backgroundImage',
  'project_logo',
  'project_backgroundImage',
  'errorLogin.count',
  'errorLogin.duration',
  'loginDuration',
  'captcha',
  'mediaLibrary.publicDirEnable',
  'mediaLibrary.publicDirFeature',
  'sitePorts.min',
  'sitePorts.max',
  'twoFactor.admin',
  'twoFactor.tenants',
] as const;

export function toFormValues(s: Settings): SettingsFormValues {
  return {
    name: s.name,
    copyright: s.copyright,
    language: s.language,
    helpUrl: s.helpUrl,
    logo: s.logo,
    backgroundImage: s.backgroundImage,
    project_logo: s.project_logo,
    project_backgroundImage: s.project_backgroundImage,
    errorLogin: {
      count: s.errorLogin.count,
      duration: { count: s.errorLogin.duration.count, unit: s.errorLogin.duration.unit },
    },
    loginDuration: { count: s.loginDuration.count, unit: s.loginDuration.unit },
    captcha: s.captcha,
    mediaLibrary: {
      publicDirEnable: s.mediaLibrary.publicDirEnable,
      publicDirFeature: [...s.mediaLibrary.publicDirFeature],
    },
    sitePorts: { min: s.sitePorts.min, max: s.sitePorts.max },
    twoFactor: { admin: s.twoFactor.admin, tenants: s.twoFactor.tenants },
  };
}

/** A dotted server/schema path → the form item that shows it (null when the form has none). */
export function formFieldFor(path: string): string[] | null {
  return longestField(path, FORM_FIELDS);
}

/** The whole Settings to PUT: the loaded settings with the form's values, checked by the shared schema. */
export function buildSettings(
  loaded: Settings,
  values: SettingsFormValues,
): { ok: true; settings: Settings } | { ok: false; fields: Record<string, string> } {
  const candidate = {
    ...loaded,
    ...values,
    errorLogin: { count: values.errorLogin.count ?? null, duration: { ...values.errorLogin.duration } },
    loginDuration: { ...values.loginDuration },
    // the permissions field is not rendered (so not in the values) while the folder is off
    mediaLibrary: {
      publicDirEnable: values.mediaLibrary?.publicDirEnable ?? false,
      publicDirFeature: values.mediaLibrary?.publicDirFeature ?? [],
    },
    sitePorts: { min: values.sitePorts?.min ?? null, max: values.sitePorts?.max ?? null },
    twoFactor: { admin: values.twoFactor?.admin ?? false, tenants: values.twoFactor?.tenants ?? false },
  };
  const parsed = settingsSchema.safeParse(candidate);
  if (!parsed.success) {
    const fields: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String).join('.');
      fields[path] ??= issue.message;
    }
    return { ok: false, fields };
  }
  return { ok: true, settings: normalizeSettings(parsed.data) };
}
