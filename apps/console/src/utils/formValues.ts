/**
 * A value of unknown type (a record's, a filter's, an option's) as an input shows it: the value when
 * it has the input's type, nothing otherwise.
 */
export const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const textsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item) => typeof item === 'string') : [];

/** One text, or several (a single or multiple choice). */
export const choiceOf = (value: unknown): string | string[] | undefined =>
  Array.isArray(value) ? textsOf(value) : textOf(value);

export const booleanOf = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
