import type { FieldMessageKey } from './messages.js';

/** The longest field identifier (ours: the spec names no length; it is a JSON key and a column name). */
export const IDENTIFIER_MAX = 64;

/** Characters an identifier must not contain (§5: . $ @ % ^ & * ( ) = + { } [ ] : ; quotes < > , ? / | \). */
const FORBIDDEN = /[.$@%^&*()=+{}[\]:;'"`<>,?/|\\]/;
const HAN = /\p{Script=Han}/u;

/**
 * The first rule of backups-data-designer.md §5 an identifier breaks, in the spec's order, or
 * undefined. `isText`: the field is of the text type, the only one that may be called `id`.
 */
export function identifierProblem(name: string, isText: boolean): FieldMessageKey | undefined {
  if (name.length === 0) return 'field.idEmpty';
  const first = name.codePointAt(0) ?? 0;
  const firstChar = String.fromCodePoint(first);
  if (/[0-9_$]/.test(firstChar) || HAN.test(firstChar)) return 'field.idFirstChar';
  if (/\s/u.test(name)) return 'field.idSpace';
  if (/^[0-9]+$/.test(name)) return 'field.idNumeric';
  if (name === 'ID') return 'field.idIsID';
  if (FORBIDDEN.test(name)) return 'field.idSymbol';
  if (name.length > IDENTIFIER_MAX) return 'field.idTooLong';
  if (name === 'id') return isText ? undefined : 'field.idOnlyText';
  if (name.toLowerCase().endsWith('id')) return 'field.idEndsWithId';
  return undefined;
}
