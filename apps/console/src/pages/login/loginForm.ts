import { LOGIN_PASSWORD_MAX } from '@gantry/shared';
import type { TFunction } from 'i18next';

export type LoginField = 'username' | 'password' | 'code';

export interface LoginValues {
  username: string;
  password: string;
  code: string;
  remember: boolean;
}

export type LoginErrors = Partial<Record<LoginField, string>>;

export const EMPTY_LOGIN: LoginValues = { username: '', password: '', code: '', remember: false };

/** console.md §5: username and password required, password at most 30; the code when it is asked for. */
export function validateField(
  field: LoginField,
  values: LoginValues,
  codeShown: boolean,
  t: TFunction,
): string | undefined {
  if (field === 'username') return values.username.trim() ? undefined : t('login.usernameRequired');
  if (field === 'password') {
    if (!values.password) return t('password.required');
    return values.password.length > LOGIN_PASSWORD_MAX ? t('password.tooLong') : undefined;
  }
  return codeShown && !values.code.trim() ? t('auth.captchaRequired') : undefined;
}

export function validateLogin(values: LoginValues, codeShown: boolean, t: TFunction): LoginErrors {
  const errors: LoginErrors = {};
  for (const field of ['username', 'password', 'code'] as const) {
    const error = validateField(field, values, codeShown, t);
    if (error) errors[field] = error;
  }
  return errors;
}

/** Server field names that belong to a form field of another name. */
const FIELD_ALIASES: Record<string, LoginField> = { codeId: 'code', captcha: 'code' };
const FIELDS = new Set<string>(['username', 'password', 'code']);

/** A 400/451 `fields` map: per-field errors, and the rest (`user`: the form-level error) for the alert. */
export function splitServerFields(fields: Record<string, string>): { errors: LoginErrors; general: string[] } {
  const errors: LoginErrors = {};
  const general: string[] = [];
  for (const [key, text] of Object.entries(fields)) {
    const name = FIELD_ALIASES[key] ?? key;
    if (FIELDS.has(name)) errors[name as LoginField] = text;
    else general.push(text);
  }
  return { errors, general };
}
