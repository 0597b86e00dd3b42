import { and, type SQL } from 'drizzle-orm';

/**
 * `and` of at least one condition: always a condition (drizzle's `and` answers undefined, meaning "every
 * row", when given none, which a scope must never be).
 */
export function allOf(first: SQL, ...rest: Array<SQL | undefined>): SQL {
  return and(first, ...rest) ?? first;
}
