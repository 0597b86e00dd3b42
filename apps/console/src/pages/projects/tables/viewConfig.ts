/**
 * A definition's `display` (the record form) and `detail` (the record detail): the console's, kept by
 * the server as given, so read here field by field (what is not of its type is left at its default).
 */
export interface DisplayConfig {
  columns?: number;
  labelLayout?: 'top' | 'left';
}
export interface DetailConfig {
  columns?: number;
  hidden?: string[];
}

const columnsOf = (value: unknown) => (typeof value === 'number' ? { columns: value } : {});

export function displayConfig(stored: Record<string, unknown>): DisplayConfig {
  const { columns, labelLayout } = stored;
  return { ...columnsOf(columns), ...(labelLayout === 'top' || labelLayout === 'left' ? { labelLayout } : {}) };
}

export function detailConfig(stored: Record<string, unknown>): DetailConfig {
  const { columns, hidden } = stored;
  const names = Array.isArray(hidden) ? hidden.filter((name) => typeof name === 'string') : undefined;
  return { ...columnsOf(columns), ...(names ? { hidden: names } : {}) };
}
