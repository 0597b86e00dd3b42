import 'i18next';
import type { LanguageResources } from './index';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    keySeparator: false;
    nsSeparator: false;
    resources: LanguageResources;
    returnNull: false;
  }
}
