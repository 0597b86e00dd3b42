import {
  type BackupMessageKey,
  DEFAULT_LANGUAGE,
  type FieldMessageKey,
  LANGUAGES,
  type Language,
  type MediaMessageKey,
  type TableFunctionMessageKey,
} from '@gantry/shared';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { backupPageZh, backupTaskZh } from './backup.zh_Hans';
import type { dbBackupPageZh } from './dbBackup.zh_Hans';
import type { ftpPageZh } from './ftp.zh_Hans';
import type { periodicBackupZh } from './periodicBackup.zh_Hans';
import type { platformBackupZh } from './platformBackup.zh_Hans';
import type { ssoPageZh } from './sso.zh_Hans';
import type { tableApiZh } from './tableApi.zh_Hans';
import type { tableFunctionsZh } from './tableFunctions.zh_Hans';
import type { tablesPageZh } from './tables.zh_Hans';
import type { templatesPageZh } from './templates.zh_Hans';
import type { translation } from './zh_Hans.bundle';

/** The language the user picked in the user menu; wins over the system setting. */
export const PICKED_LANGUAGE_KEY = 'gantry.language';
/** The last system language seen in settings, so the first paint is already in it. */
export const SYSTEM_LANGUAGE_KEY = 'gantry.systemLanguage';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function pickedLanguage(): Language | null {
  const value = readStorage(PICKED_LANGUAGE_KEY);
  return isLanguage(value) ? value : null;
}

function initialLanguage(): Language {
  const system = readStorage(SYSTEM_LANGUAGE_KEY);
  return pickedLanguage() ?? (isLanguage(system) ? system : DEFAULT_LANGUAGE);
}

/** The shape of one language's texts (i18next.d.ts types `t` with it). */
export type LanguageResources = {
  translation: typeof translation &
    typeof backupPageZh &
    typeof backupTaskZh &
    typeof ftpPageZh &
    typeof dbBackupPageZh &
    typeof periodicBackupZh &
    typeof platformBackupZh &
    typeof ssoPageZh &
    typeof templatesPageZh &
    typeof tablesPageZh &
    typeof tableApiZh &
    typeof tableFunctionsZh &
    Record<BackupMessageKey | MediaMessageKey | FieldMessageKey | TableFunctionMessageKey, string>;
};

/** Every key the console can show: its own texts and the shared messages it loads. */
export type TextKey = keyof LanguageResources['translation'];

/**
 * Each language's texts are a chunk of their own, loaded when shown: the console never downloads
 * the language it does not display (weight/budgets.ts).
 */
const BUNDLES: Record<Language, () => Promise<{ translation: Record<string, string> }>> = {
  zh_Hans: () => import('./zh_Hans.bundle'),
  en: () => import('./en.bundle'),
};
const loaded = new Map<Language, Promise<void>>();

/** Loads a language's texts into i18next (once). */
export function loadLanguage(language: Language): Promise<void> {
  let loading = loaded.get(language);
  if (!loading) {
    loading = BUNDLES[language]().then((bundle) => {
      i18n.addResourceBundle(language, 'translation', bundle.translation, true, true);
    });
    loaded.set(language, loading);
  }
  return loading;
}

/** Loads the language's texts, then shows it. */
function showLanguage(language: Language): Promise<void> {
  return loadLanguage(language).then(() => i18n.changeLanguage(language).then(() => undefined));
}

const firstLanguage = initialLanguage();
void i18n.use(initReactI18next).init({
  resources: {},
  partialBundledLanguages: true,
  lng: firstLanguage,
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  load: 'currentOnly',
  cleanCode: false,
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
});

/** Resolves once the first language's texts are there: main.tsx renders after it. */
export const i18nReady: Promise<void> = loadLanguage(firstLanguage);

export function currentLanguage(): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}

/** The value of Accept-Language for the API: `zh` or `en`. */
export function acceptLanguage(): 'zh' | 'en' {
  return currentLanguage() === 'en' ? 'en' : 'zh';
}

/** The user picks a language in the user menu: remembered and applied at once. */
export function pickLanguage(language: Language): void {
  try {
    localStorage.setItem(PICKED_LANGUAGE_KEY, language);
  } catch {
    // storage unavailable: the choice lasts for this page only
  }
  void showLanguage(language);
}

/** The system language from settings applies unless the user picked one. */
export function followSystemLanguage(language: Language): void {
  try {
    localStorage.setItem(SYSTEM_LANGUAGE_KEY, language);
  } catch {
    // ignore
  }
  if (!pickedLanguage() && currentLanguage() !== language) void showLanguage(language);
}

/** After the administrator saved a new system language: forget the user's pick so the reload follows it. */
export function adoptSystemLanguage(language: Language): void {
  try {
    localStorage.removeItem(PICKED_LANGUAGE_KEY);
    localStorage.setItem(SYSTEM_LANGUAGE_KEY, language);
  } catch {
    // ignore
  }
}

export default i18n;

/** Server and shared messages may be message keys ('settings.nameRequired') or plain text. */
export function translateMessage(text: string): string {
  return i18n.exists(text) ? i18n.t(text as TextKey) : text;
}
