import { translateMessage } from '../i18n';

/** A form item's errors, as antd's `setFields` takes them. */
export interface FieldError {
  name: string[];
  errors: string[];
}

/** The form item a dotted server/schema path belongs to: the longest of `fields` it is or starts with; null when none. */
export function longestField(path: string, fields: readonly string[]): string[] | null {
  let best: string | null = null;
  for (const field of fields) {
    if ((path === field || path.startsWith(`${field}.`)) && (!best || field.length > best.length)) best = field;
  }
  return best ? best.split('.') : null;
}

/**
 * `fields` of a 400 answer (or schema issues) → errors of the form items `fieldFor` finds, translated,
 * and the messages no field can show.
 */
export function mapFieldErrors(
  fields: Record<string, string>,
  fieldFor: (path: string) => string[] | null,
): { fieldErrors: FieldError[]; other: string[] } {
  const fieldErrors: FieldError[] = [];
  const other: string[] = [];
  for (const [path, message] of Object.entries(fields)) {
    const name = fieldFor(path);
    const text = translateMessage(message);
    if (name) fieldErrors.push({ name, errors: [text] });
    else other.push(text);
  }
  return { fieldErrors, other };
}
