import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Action } from '../policy/policy.js';
import { unlistedKeys } from './json-view.js';
import { COUNT_CAP, type ListTotal } from './list-count.js';
import { LIKE_LIMITS } from './list-query/like-pattern.js';
import {
  FILTER_LIMITS,
  type ListQuery,
  type ParsedFilter,
  parseCountFilter,
  parseListQuery,
  type ResourceDef,
} from './list-query/list-query.js';

/** `/:id` of every single-object call. */
export const idParams = z.object({ id: z.string().min(1).max(64) });

/** `?query=<JSON>` of every list and count call (spec README, contract 4). */
export const listQuerystring = z.object({ query: z.string().max(20_000).optional() });

/** Set (to `true`) beside `count` when the total is an estimate; absent when it is exact. */
export const COUNT_ESTIMATED_HEADER = 'count-estimated';

const CAP = COUNT_CAP.toLocaleString('en');

/** The query language, as every list call's API description states it. */
export const LIST_QUERY_DESCRIPTION = [
  '`query` is JSON `{filter, sort, skip, limit, project, withCount}`. Filter operators: eq, ne, gt, gte, lt, lte,',
  'in, nin, like, and, or, nor, not (with or without `$`).',
  `\`like\` takes text or a safe subset of regular expressions, matched case-insensitively anywhere in the value:`,
  '`.`, classes `[abc]` `[^abc]` `[a-z]` (a range within digits, a-z, A-Z or non-ASCII), `* + ?` after one',
  'character, `.` or class, `^ $`, and `|` at the top level or inside one level of `( )` that is not repeated;',
  'a backslash makes a metacharacter literal (`\\.`).',
  `At most ${FILTER_LIMITS.patternLength} characters and ${LIKE_LIMITS.quantifiers} repetitions. Anything else`,
  '(nested or repeated groups, counted repetition `{n,m}`, backreferences, lookarounds, escapes such as `\\d`)',
  'is a 400 `badQuery` naming what is not allowed.',
].join(' ');

/** How a capped total is described; `what` names the rows ("entries", "tenants"). */
export function cappedTotalDescription(what: string): string {
  return (
    `With \`withCount\` the total is in the \`count\` header: exact up to ${CAP} ${what}; above that the ` +
    `planner's estimate (never below ${(COUNT_CAP + 1).toLocaleString('en')}), marked by the header \`${COUNT_ESTIMATED_HEADER}: true\`.`
  );
}

function setTotal(reply: FastifyReply, total: ListTotal): void {
  reply.header('count', String(total.count));
  if (total.estimated) reply.header(COUNT_ESTIMATED_HEADER, 'true');
}

/**
 * Shapes a list answer: only the projected fields of each item, and the total in the `count`
 * header (with `count-estimated: true` when it is an estimate) when it was asked for.
 */
export function listAnswer<T extends object>(
  reply: FastifyReply,
  result: { items: T[]; total?: ListTotal | undefined },
  fields: string[] | undefined,
): Partial<T>[] {
  if (result.total !== undefined) setTotal(reply, result.total);
  return projected(result.items, fields);
}

/** Only the projected fields of each item (and its id); every field when there is no projection. */
export function projected<T extends object>(items: T[], fields: string[] | undefined): Partial<T>[] {
  if (!fields) return items;
  return items.map(
    (item) =>
      Object.fromEntries(Object.entries(item).filter(([key]) => key === 'id' || fields.includes(key))) as Partial<T>,
  );
}

/** The schema of every `GET <resource>/count`: the filter in `query`, `{count}` back; `totals` says how exact. */
export function countRouteSchema(tags: string[], totals: string) {
  return {
    tags,
    description: `\`query\` is the filter alone (or a list query with \`filter\`). ${totals}`,
    querystring: listQuerystring,
    response: { 200: z.object({ count: z.number() }) },
  };
}

/** `GET <resource>/count`: `{count}`, and the same headers as a list's total. */
export function countAnswer(reply: FastifyReply, total: ListTotal): { count: number } {
  setTotal(reply, total);
  return { count: total.count };
}

/**
 * A page as JSON text already in the answer's shape and projection (built by the database, e.g.
 * `projectViewSql`, or serialised from items a presenter shaped by the schema, e.g. `projectViewOf`):
 * sent as it is, without parsing, checking or serialising it again.
 */
export interface JsonPage {
  json: string;
  total?: ListTotal | undefined;
}

/**
 * Outside production, a JSON page is checked as zod's response check would check an answer (the
 * schema's types, and not one key it does not list, at any depth): every test of a list runs it.
 * Production trusts the shaping by the same schema (`lib/json-view.ts`, in SQL or in JavaScript)
 * and the property test that holds both equal to the presenter after zod's check.
 */
const CHECK_JSON_PAGES = process.env.NODE_ENV !== 'production';

function checkJsonPage(json: string, item: z.ZodObject, path: string): void {
  const items: unknown = JSON.parse(json);
  const parsed = z.array(item.partial()).safeParse(items);
  const unlisted = Array.isArray(items) ? items.flatMap((one) => unlistedKeys(item, one)) : [];
  if (!parsed.success || unlisted.length > 0) {
    throw new Error(
      `${path}: the page does not match the answer's schema: ${
        parsed.success ? `unlisted keys ${unlisted.slice(0, 5).join(', ')}` : parsed.error.message
      }`,
    );
  }
}

/** One resource's pair of calls, `GET <path>` (the list) and `GET <path>/count`. */
export interface ListRoutes<F extends string, Item extends z.ZodObject> {
  path: string;
  /** The action both calls declare (plugins/auth.ts enforces it; rows are narrowed by the service). */
  action: Action;
  tags: string[];
  resource: ResourceDef<F>;
  /** One row as answered; a list item is its projection (`partial`). */
  item: Item;
  /** What the totals are (exact, capped, maintained…), for both descriptions. */
  totals: string;
  /** The page as items (projected and checked here), or as JSON text already in the answer's shape. */
  list: (
    request: FastifyRequest,
    query: ListQuery<F>,
  ) => Promise<{ items: z.infer<Item>[]; total?: ListTotal } | JsonPage>;
  count: (request: FastifyRequest, filter: ParsedFilter) => Promise<ListTotal>;
}

/**
 * Registers a resource's list and count calls (spec README, contract 4): the query parsed against
 * `resource`, the list projected with its total in the headers, the count as `{count}`. The
 * handlers are the service's; this is only the HTTP shape they share.
 */
export function registerListRoutes<F extends string, Item extends z.ZodObject>(
  fastify: FastifyInstance,
  routes: ListRoutes<F, Item>,
): void {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { path, action, tags, resource, totals } = routes;
  app.get(
    path,
    {
      config: { action },
      schema: {
        tags,
        description: `${LIST_QUERY_DESCRIPTION} ${totals}`,
        querystring: listQuerystring,
        response: { 200: z.array(routes.item.partial()) },
      },
    },
    async (request, reply) => {
      const query = parseListQuery(request.query.query, resource);
      const result = await routes.list(request, query);
      if (!('json' in result)) return listAnswer(reply, result, query.fields);
      if (CHECK_JSON_PAGES) checkJsonPage(result.json, routes.item, path);
      if (result.total !== undefined) setTotal(reply, result.total);
      // A string with a JSON content type is sent as it is (no response serializer runs); the
      // reply is widened from the schema's item type to say so.
      const raw: FastifyReply = reply;
      return raw.type('application/json; charset=utf-8').send(result.json);
    },
  );
  app.get(`${path}/count`, { config: { action }, schema: countRouteSchema(tags, totals) }, async (request, reply) =>
    countAnswer(reply, await routes.count(request, parseCountFilter(request.query.query, resource))),
  );
}
