import { ACCOUNT_MESSAGES } from './account-messages.js';
import { BACKUP_MESSAGES } from './backup-messages.js';
import { FIELD_MESSAGES } from './fields-messages.js';
import { MEDIA_MESSAGES } from './media-messages.js';
import { CORE_MESSAGES, fill } from './messages.js';
import { PROJECT_EXPAND_MESSAGES } from './project-expand.js';
import { SITE_MESSAGES } from './site-messages.js';
import { SSO_MESSAGES } from './sso-messages.js';
import { TABLE_FUNCTION_MESSAGES } from './table-function-messages.js';
import { TEMPLATE_MESSAGES } from './template-messages.js';
import type { Language } from './validations.js';

/**
 * Every message both sides show: the core ones (messages.ts), those of the backup screens
 * (backup-messages.ts) and of the media library (media-messages.ts). The server translates any of
 * them; the console loads the core ones with every route and the others with their screens, so it
 * does not import this module on the way.
 */
export const MESSAGES = {
  ...CORE_MESSAGES,
  ...BACKUP_MESSAGES,
  ...MEDIA_MESSAGES,
  ...SITE_MESSAGES,
  ...SSO_MESSAGES,
  ...TEMPLATE_MESSAGES,
  ...FIELD_MESSAGES,
  ...TABLE_FUNCTION_MESSAGES,
  ...PROJECT_EXPAND_MESSAGES,
  ...ACCOUNT_MESSAGES,
};

export type MessageKey = keyof typeof MESSAGES;
export type BackupMessageKey = keyof typeof BACKUP_MESSAGES;
export type MediaMessageKey = keyof typeof MEDIA_MESSAGES;

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(MESSAGES, key);
}

export function translate(key: MessageKey, language: Language, params: Record<string, string | number> = {}): string {
  return fill(MESSAGES[key][language], params);
}

/** `translate`, with every param that is itself a message key translated first (with the same params). */
export function translateWithParams(
  key: MessageKey,
  language: Language,
  params: Record<string, string | number> = {},
): string {
  const filled = Object.fromEntries(
    Object.entries(params).map(([name, value]) => [
      name,
      typeof value === 'string' && isMessageKey(value) ? translate(value, language, params) : value,
    ]),
  );
  return translate(key, language, filled);
}
