import type { FieldMessageKey } from './messages.js';

/** The longest field identifier (ours: the spec names no length; it is a JSON key and a column name). */
export const IDENTIFIER_MAX = 64;

/** Characters an identifier must not contain (§5: . $ @ % ^ & * ( ) = + { } [ ] : ; quotes < > , ? / | \). */
const FORBIDDEN = /[.$@%^&*()=+{}[\]:;'"`<>,?/|\\]/;
/** Control and format characters (U+0000-U+001F, U+202E…): invisible, or turning the text around. */
const INVISIBLE = /[\p{Cc}\p{Cf}]/u;

/**
 * The first rule of backups-data-designer.md §5 an identifier breaks, in the spec's order, or
 * undefined. `isText`: the field is of the text type, the only one that may be called `id`.
 * The first character is an ASCII letter (§5 forbids digits, _, $ and Chinese there; ours forbids every
 * other character too, so that a record list can always filter and sort by the field), and no
 * character is invisible (a control or format character such as U+202E).
 */
export function identifierProblem(name: string, isText: boolean): FieldMessageKey | undefined {
  if (name.length === 0) return 'field.idEmpty';
  if (!/^[A-Za-z]/.test(name)) return 'field.idFirstChar';
  if (INVISIBLE.test(name)) return 'field.idInvisible';
  if (/\s/u.test(name)) return 'field.idSpace';
  if (/^[0-9]+$/.test(name)) return 'field.idNumeric';
  if (name === 'ID') return 'field.idIsID';
  if (FORBIDDEN.test(name)) return 'field.idSymbol';
  if (name.length > IDENTIFIER_MAX) return 'field.idTooLong';
  if (name === 'id') return isText ? undefined : 'field.idOnlyText';
  if (name.toLowerCase().endsWith('id')) return 'field.idEndsWithId';
  return undefined;
}
