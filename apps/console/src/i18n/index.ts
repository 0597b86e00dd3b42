import { DEFAULT_LANGUAGE, LANGUAGES, type Language, type MessageKey, messagesFor } from '@gantry/shared';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en';
import { type ConsoleKey, zh_Hans } from './zh_Hans';

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

export const resources = {
  zh_Hans: { translation: { ...messagesFor('zh_Hans'), ...zh_Hans } },
  en: { translation: { ...messagesFor('en'), ...en } },
} as const;

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
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
  void i18n.changeLanguage(language);
}

/** The system language from settings applies unless the user picked one. */
export function followSystemLanguage(language: Language): void {
  try {
    localStorage.setItem(SYSTEM_LANGUAGE_KEY, language);
  } catch {
    // ignore
  }
  if (!pickedLanguage() && currentLanguage() !== language) void i18n.changeLanguage(language);
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
  return i18n.exists(text) ? i18n.t(text as ConsoleKey | MessageKey) : text;
}
