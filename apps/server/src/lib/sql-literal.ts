import { type SQL, sql } from 'drizzle-orm';

/**
 * `text` as a PostgreSQL string constant, for the few statements that cannot take parameters (COPY,
 * DDL). Quotes are doubled; a text with a backslash becomes an escape string (E'…', backslashes
 * doubled), so it reads the same whatever `standard_conforming_strings` says. Node-postgres has the
 * same function, but importing `pg` costs a PGlite start 0.1 s.
 */
export function sqlLiteral(text: string): string {
  const quoted = text.replaceAll("'", "''");
  return text.includes('\\') ? `E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/** `sqlLiteral` inside a drizzle statement. */
export const rawLiteral = (text: string): SQL => sql.raw(sqlLiteral(text));
