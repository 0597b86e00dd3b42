import { DEFAULT_HELP_URL, type Language } from '@gantry/shared';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n';
import { useSettings } from '../../services/settings';

/**
 * Where Help opens: the address in settings (helpUrl); the shipped guide by default, asked for in
 * the language the console shows (the server's /guide/ picks the page by `lang`).
 */
export function helpHref(configured: string | undefined, language: Language): string {
  const url = configured || DEFAULT_HELP_URL;
  return url === DEFAULT_HELP_URL ? `${url}?lang=${language}` : url;
}

/** The Help menu entry: opens the guide in a new window. */
export function HelpLink({ title }: { title: string }) {
  useTranslation(); // follows the language shown
  const { data: settings } = useSettings();
  const configured = settings && 'helpUrl' in settings ? settings.helpUrl : undefined;
  return (
    <a data-testid="menu-help" href={helpHref(configured, currentLanguage())} target="_blank" rel="noopener noreferrer">
      {title}
    </a>
  );
}
