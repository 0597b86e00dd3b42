import type { SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** How values of a field are checked, compared and bound (see the header of `list-query.ts`). */
/**
 * `document`: a value inside a JSON document (an expression of type jsonb, JSON null read as SQL
 * NULL). Its values are strings, numbers or booleans compared as jsonb, and a condition matches only
 * a value of the operand's JSON type (Mongo-like: `{"gt": 5}` never matches a string).
 */
export type FieldType = 'string' | 'number' | 'boolean' | 'date' | 'json' | 'document';

export type SortDirection = 1 | -1;

export interface FieldDef {
  /** The column or SQL expression the name stands for. */
  sql: SQL | AnyPgColumn;
  type: FieldType;
  /** May appear in `filter` (default true). A json field takes `eq` and `ne` only. */
  filter?: boolean;
  /** May appear in `sort` (default false): declare it only where an index serves the order. */
  sort?: boolean;
}

/** What a list endpoint exposes. Field names are the names clients use (`user`, `grant.userCount`). */
export interface ResourceDef<F extends string = string> {
  /** For logs and readers of the code. */
  name: string;
  fields: Record<F, FieldDef>;
  /**
   * Fields beyond the declared ones, for open documents: the definition of a name the client used,
   * or undefined to refuse it. Such fields are projected in the order the client named them.
   */
  resolve?: (name: string) => FieldDef | undefined;
  /**
   * A field with unique values: appended to every sort so that paging is stable, and always
   * returned by a projection.
   */
  id: F;
  /** Used when the query gives no sort; keys apply in order. */
  defaultSort: Partial<Record<F, SortDirection>>;
  defaultLimit: number;
  /** A larger `limit` is lowered to this (not an error). */
  maxLimit: number;
}

/** A checked list query, ready for a drizzle select. */
export interface ListQuery<F extends string = string> {
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
  offset: number;
  /** Fields to return, in declaration order, the id included; undefined: all of them. */
  fields: F[] | undefined;
  withCount: boolean;
  /**
   * Field → value when the filter is only ANDed `eq` conditions on non-null values (`{}` without a
   * filter): such totals may come from a maintained counter. Undefined for any other filter.
   */
  equalities: Readonly<Record<string, string | number | boolean>> | undefined;
}
